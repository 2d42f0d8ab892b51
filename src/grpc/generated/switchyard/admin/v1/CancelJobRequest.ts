// Original file: switchyard/admin/v1/jobs.proto


export interface CancelJobRequest {
  'id'?: (string);
  'organization'?: (string);
  '_organization'?: "organization";
}

export interface CancelJobRequest__Output {
  'id': (string);
  'organization'?: (string);
  '_organization'?: "organization";
}
