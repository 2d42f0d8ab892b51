// Original file: switchyard/admin/v1/workflows.proto


export interface ListSchedulesRequest {
  'organization'?: (string);
  'workflow'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
}

export interface ListSchedulesRequest__Output {
  'organization': (string);
  'workflow': (string);
  'limit': (number);
  'cursor': (string);
}
