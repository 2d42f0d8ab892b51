// Original file: switchyard/admin/v1/jobs.proto


export interface GetJobRequest {
  'id'?: (string);
  'organization'?: (string);
  '_organization'?: "organization";
}

export interface GetJobRequest__Output {
  'id': (string);
  'organization'?: (string);
  '_organization'?: "organization";
}
