// Original file: switchyard/admin/v1/workflows.proto


export interface GetRunRequest {
  'id'?: (string);
  'organization'?: (string);
  '_organization'?: "organization";
}

export interface GetRunRequest__Output {
  'id': (string);
  'organization'?: (string);
  '_organization'?: "organization";
}
