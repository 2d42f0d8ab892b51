// Original file: switchyard/admin/v1/jobs.proto


export interface ListJobsRequest {
  'organization'?: (string);
  'status'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  '_status'?: "status";
}

export interface ListJobsRequest__Output {
  'organization': (string);
  'status'?: (string);
  'limit': (number);
  'cursor': (string);
  '_status'?: "status";
}
