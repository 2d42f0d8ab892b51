// Original file: switchyard/admin/v1/workflows.proto

import type { WorkflowSchedule as _switchyard_admin_v1_WorkflowSchedule, WorkflowSchedule__Output as _switchyard_admin_v1_WorkflowSchedule__Output } from '../../../switchyard/admin/v1/WorkflowSchedule.js';

export interface ListSchedulesResponse {
  'schedules'?: (_switchyard_admin_v1_WorkflowSchedule)[];
  'next_cursor'?: (string);
}

export interface ListSchedulesResponse__Output {
  'schedules': (_switchyard_admin_v1_WorkflowSchedule__Output)[];
  'next_cursor': (string);
}
