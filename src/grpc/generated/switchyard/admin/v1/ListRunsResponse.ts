// Original file: switchyard/admin/v1/workflows.proto

import type { WorkflowRun as _switchyard_admin_v1_WorkflowRun, WorkflowRun__Output as _switchyard_admin_v1_WorkflowRun__Output } from '../../../switchyard/admin/v1/WorkflowRun.js';

export interface ListRunsResponse {
  'runs'?: (_switchyard_admin_v1_WorkflowRun)[];
  'next_cursor'?: (string);
}

export interface ListRunsResponse__Output {
  'runs': (_switchyard_admin_v1_WorkflowRun__Output)[];
  'next_cursor': (string);
}
