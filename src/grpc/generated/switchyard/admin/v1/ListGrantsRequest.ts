// Original file: switchyard/admin/v1/grants.proto


export interface ListGrantsRequest {
  'organization'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
}

export interface ListGrantsRequest__Output {
  'organization': (string);
  'limit': (number);
  'cursor': (string);
}
