// Original file: switchyard/admin/v1/workflows.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value.js';
import type { WorkflowNode as _switchyard_admin_v1_WorkflowNode, WorkflowNode__Output as _switchyard_admin_v1_WorkflowNode__Output } from '../../../switchyard/admin/v1/WorkflowNode.js';
import type { WorkflowNodeState as _switchyard_admin_v1_WorkflowNodeState, WorkflowNodeState__Output as _switchyard_admin_v1_WorkflowNodeState__Output } from '../../../switchyard/admin/v1/WorkflowNodeState.js';
import type { WorkflowRunError as _switchyard_admin_v1_WorkflowRunError, WorkflowRunError__Output as _switchyard_admin_v1_WorkflowRunError__Output } from '../../../switchyard/admin/v1/WorkflowRunError.js';
import type { WorkflowRunSubmitter as _switchyard_admin_v1_WorkflowRunSubmitter, WorkflowRunSubmitter__Output as _switchyard_admin_v1_WorkflowRunSubmitter__Output } from '../../../switchyard/admin/v1/WorkflowRunSubmitter.js';

export interface WorkflowRun {
  'id'?: (string);
  'organization_id'?: (string);
  'workflow_id'?: (string);
  'workflow_name'?: (string);
  'version'?: (number);
  'status'?: (string);
  'input'?: (_google_protobuf_Struct | null);
  'state'?: (_google_protobuf_Value | null);
  'priority'?: (number);
  'nodes'?: (_switchyard_admin_v1_WorkflowNode)[];
  'node_states'?: ({[key: string]: _switchyard_admin_v1_WorkflowNodeState});
  'output'?: (_google_protobuf_Struct | null);
  'error'?: (_switchyard_admin_v1_WorkflowRunError | null);
  'submitted_by'?: (_switchyard_admin_v1_WorkflowRunSubmitter | null);
  'schedule_id'?: (string);
  'created_at'?: (string);
  'queued_at'?: (string);
  'promoted_at'?: (string);
  'started_at'?: (string);
  'finished_at'?: (string);
  'updated_at'?: (string);
  'instance_id'?: (string);
  'wait_expires_at'?: (string);
  '_schedule_id'?: "schedule_id";
  '_queued_at'?: "queued_at";
  '_promoted_at'?: "promoted_at";
  '_started_at'?: "started_at";
  '_finished_at'?: "finished_at";
  '_instance_id'?: "instance_id";
  '_wait_expires_at'?: "wait_expires_at";
}

export interface WorkflowRun__Output {
  'id': (string);
  'organization_id': (string);
  'workflow_id': (string);
  'workflow_name': (string);
  'version': (number);
  'status': (string);
  'input': (_google_protobuf_Struct__Output | null);
  'state': (_google_protobuf_Value__Output | null);
  'priority': (number);
  'nodes': (_switchyard_admin_v1_WorkflowNode__Output)[];
  'node_states': ({[key: string]: _switchyard_admin_v1_WorkflowNodeState__Output});
  'output': (_google_protobuf_Struct__Output | null);
  'error': (_switchyard_admin_v1_WorkflowRunError__Output | null);
  'submitted_by': (_switchyard_admin_v1_WorkflowRunSubmitter__Output | null);
  'schedule_id'?: (string);
  'created_at': (string);
  'queued_at'?: (string);
  'promoted_at'?: (string);
  'started_at'?: (string);
  'finished_at'?: (string);
  'updated_at': (string);
  'instance_id'?: (string);
  'wait_expires_at'?: (string);
  '_schedule_id'?: "schedule_id";
  '_queued_at'?: "queued_at";
  '_promoted_at'?: "promoted_at";
  '_started_at'?: "started_at";
  '_finished_at'?: "finished_at";
  '_instance_id'?: "instance_id";
  '_wait_expires_at'?: "wait_expires_at";
}
