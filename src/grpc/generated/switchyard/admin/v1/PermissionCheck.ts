// Original file: switchyard/admin/v1/permissions.proto


export interface PermissionCheck {
  'allowed'?: (boolean);
  'role'?: (string);
  'reason'?: (string);
  'organization_id'?: (string);
  'principal_id'?: (string);
  'api_key_id'?: (string);
  'action'?: (string);
  'resource_type'?: (string);
  'resource_id'?: (string);
  'required_role'?: (string);
  '_role'?: "role";
  '_api_key_id'?: "api_key_id";
}

export interface PermissionCheck__Output {
  'allowed': (boolean);
  'role'?: (string);
  'reason': (string);
  'organization_id': (string);
  'principal_id': (string);
  'api_key_id'?: (string);
  'action': (string);
  'resource_type': (string);
  'resource_id': (string);
  'required_role': (string);
  '_role'?: "role";
  '_api_key_id'?: "api_key_id";
}
