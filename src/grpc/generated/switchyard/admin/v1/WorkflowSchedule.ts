// Original file: switchyard/admin/v1/workflows.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value.js';
import type { WorkflowRunSubmitter as _switchyard_admin_v1_WorkflowRunSubmitter, WorkflowRunSubmitter__Output as _switchyard_admin_v1_WorkflowRunSubmitter__Output } from '../../../switchyard/admin/v1/WorkflowRunSubmitter.js';

export interface WorkflowSchedule {
  'id'?: (string);
  'organization_id'?: (string);
  'workflow_id'?: (string);
  'workflow_name'?: (string);
  'cron'?: (string);
  'timezone'?: (string);
  'input'?: (_google_protobuf_Struct | null);
  'state'?: (_google_protobuf_Value | null);
  'overlap'?: (string);
  'created_by'?: (_switchyard_admin_v1_WorkflowRunSubmitter | null);
  'next_run_at'?: (string);
  'last_run_id'?: (string);
  'last_triggered_at'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  '_next_run_at'?: "next_run_at";
  '_last_run_id'?: "last_run_id";
  '_last_triggered_at'?: "last_triggered_at";
}

export interface WorkflowSchedule__Output {
  'id': (string);
  'organization_id': (string);
  'workflow_id': (string);
  'workflow_name': (string);
  'cron': (string);
  'timezone': (string);
  'input': (_google_protobuf_Struct__Output | null);
  'state': (_google_protobuf_Value__Output | null);
  'overlap': (string);
  'created_by': (_switchyard_admin_v1_WorkflowRunSubmitter__Output | null);
  'next_run_at'?: (string);
  'last_run_id'?: (string);
  'last_triggered_at'?: (string);
  'created_at': (string);
  'updated_at': (string);
  '_next_run_at'?: "next_run_at";
  '_last_run_id'?: "last_run_id";
  '_last_triggered_at'?: "last_triggered_at";
}
