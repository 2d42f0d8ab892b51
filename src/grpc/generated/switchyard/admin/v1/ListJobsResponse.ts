// Original file: switchyard/admin/v1/jobs.proto

import type { Job as _switchyard_admin_v1_Job, Job__Output as _switchyard_admin_v1_Job__Output } from '../../../switchyard/admin/v1/Job.js';

export interface ListJobsResponse {
  'jobs'?: (_switchyard_admin_v1_Job)[];
  'next_cursor'?: (string);
}

export interface ListJobsResponse__Output {
  'jobs': (_switchyard_admin_v1_Job__Output)[];
  'next_cursor': (string);
}
