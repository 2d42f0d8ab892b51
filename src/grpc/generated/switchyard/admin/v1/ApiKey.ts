// Original file: switchyard/admin/v1/api_keys.proto


export interface ApiKey {
  'id'?: (string);
  'name'?: (string);
  'organization_id'?: (string);
  'principal_id'?: (string);
  'prefix'?: (string);
  'scopes'?: (string)[];
  'expires_at'?: (string);
  'created_at'?: (string);
  'revoked_at'?: (string);
  'last_used_at'?: (string);
  'revoked_reason'?: (string);
  '_expires_at'?: "expires_at";
  '_revoked_at'?: "revoked_at";
  '_last_used_at'?: "last_used_at";
  '_revoked_reason'?: "revoked_reason";
}

export interface ApiKey__Output {
  'id': (string);
  'name': (string);
  'organization_id': (string);
  'principal_id': (string);
  'prefix': (string);
  'scopes': (string)[];
  'expires_at'?: (string);
  'created_at': (string);
  'revoked_at'?: (string);
  'last_used_at'?: (string);
  'revoked_reason'?: (string);
  '_expires_at'?: "expires_at";
  '_revoked_at'?: "revoked_at";
  '_last_used_at'?: "last_used_at";
  '_revoked_reason'?: "revoked_reason";
}
