// Original file: switchyard/admin/v1/workflows.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';
import type { WorkflowRunError as _switchyard_admin_v1_WorkflowRunError, WorkflowRunError__Output as _switchyard_admin_v1_WorkflowRunError__Output } from '../../../switchyard/admin/v1/WorkflowRunError.js';

export interface WorkflowNodeState {
  'status'?: (string);
  'provider'?: (string);
  'output'?: (_google_protobuf_Struct | null);
  'error'?: (_switchyard_admin_v1_WorkflowRunError | null);
  'started_at'?: (string);
  'finished_at'?: (string);
  '_provider'?: "provider";
  '_started_at'?: "started_at";
  '_finished_at'?: "finished_at";
}

export interface WorkflowNodeState__Output {
  'status': (string);
  'provider'?: (string);
  'output': (_google_protobuf_Struct__Output | null);
  'error': (_switchyard_admin_v1_WorkflowRunError__Output | null);
  'started_at'?: (string);
  'finished_at'?: (string);
  '_provider'?: "provider";
  '_started_at'?: "started_at";
  '_finished_at'?: "finished_at";
}
