// Original file: switchyard/admin/v1/workflows.proto


export interface RunActionRequest {
  'id'?: (string);
  'organization'?: (string);
  '_organization'?: "organization";
}

export interface RunActionRequest__Output {
  'id': (string);
  'organization'?: (string);
  '_organization'?: "organization";
}
