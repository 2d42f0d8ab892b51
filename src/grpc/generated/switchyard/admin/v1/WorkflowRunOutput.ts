// Original file: switchyard/admin/v1/workflows.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';
import type { WorkflowRunArtifact as _switchyard_admin_v1_WorkflowRunArtifact, WorkflowRunArtifact__Output as _switchyard_admin_v1_WorkflowRunArtifact__Output } from '../../../switchyard/admin/v1/WorkflowRunArtifact.js';

export interface WorkflowRunOutput {
  'run_id'?: (string);
  'status'?: (string);
  'output'?: (_google_protobuf_Struct | null);
  'artifacts'?: (_switchyard_admin_v1_WorkflowRunArtifact)[];
}

export interface WorkflowRunOutput__Output {
  'run_id': (string);
  'status': (string);
  'output': (_google_protobuf_Struct__Output | null);
  'artifacts': (_switchyard_admin_v1_WorkflowRunArtifact__Output)[];
}
