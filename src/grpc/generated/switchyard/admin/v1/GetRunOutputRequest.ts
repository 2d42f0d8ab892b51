// Original file: switchyard/admin/v1/workflows.proto


export interface GetRunOutputRequest {
  'id'?: (string);
  'organization'?: (string);
  'expires_in_seconds'?: (number);
  '_organization'?: "organization";
  '_expires_in_seconds'?: "expires_in_seconds";
}

export interface GetRunOutputRequest__Output {
  'id': (string);
  'organization'?: (string);
  'expires_in_seconds'?: (number);
  '_organization'?: "organization";
  '_expires_in_seconds'?: "expires_in_seconds";
}
