// Original file: switchyard/admin/v1/api_keys.proto


export interface RevokeApiKeyRequest {
  'id'?: (string);
  'organization'?: (string);
}

export interface RevokeApiKeyRequest__Output {
  'id': (string);
  'organization': (string);
}
