// Original file: switchyard/admin/v1/api_keys.proto


export interface GetApiKeyRequest {
  'id'?: (string);
  'organization'?: (string);
}

export interface GetApiKeyRequest__Output {
  'id': (string);
  'organization': (string);
}
