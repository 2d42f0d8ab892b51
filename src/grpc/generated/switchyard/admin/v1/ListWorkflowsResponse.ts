// Original file: switchyard/admin/v1/workflows.proto

import type { Workflow as _switchyard_admin_v1_Workflow, Workflow__Output as _switchyard_admin_v1_Workflow__Output } from '../../../switchyard/admin/v1/Workflow.js';

export interface ListWorkflowsResponse {
  'workflows'?: (_switchyard_admin_v1_Workflow)[];
  'next_cursor'?: (string);
}

export interface ListWorkflowsResponse__Output {
  'workflows': (_switchyard_admin_v1_Workflow__Output)[];
  'next_cursor': (string);
}
