// Original file: switchyard/admin/v1/api_keys.proto


export interface ListApiKeysRequest {
  'organization'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  'include_revoked'?: (boolean);
}

export interface ListApiKeysRequest__Output {
  'organization': (string);
  'limit': (number);
  'cursor': (string);
  'include_revoked': (boolean);
}
