// Original file: switchyard/admin/v1/api_keys.proto


export interface CreateApiKeyRequest {
  'organization'?: (string);
  'name'?: (string);
  'scopes'?: (string)[];
  'expires_in_seconds'?: (number);
  'principal_id'?: (string);
  '_expires_in_seconds'?: "expires_in_seconds";
  '_principal_id'?: "principal_id";
}

export interface CreateApiKeyRequest__Output {
  'organization': (string);
  'name': (string);
  'scopes': (string)[];
  'expires_in_seconds'?: (number);
  'principal_id'?: (string);
  '_expires_in_seconds'?: "expires_in_seconds";
  '_principal_id'?: "principal_id";
}
