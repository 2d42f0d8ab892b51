// Original file: switchyard/admin/v1/permissions.proto


export interface CheckPermissionRequest {
  'organization'?: (string);
  'principal'?: (string);
  'api_key_id'?: (string);
  'action'?: (string);
  'resource_type'?: (string);
  'resource_id'?: (string);
  '_principal'?: "principal";
  '_api_key_id'?: "api_key_id";
  '_resource_type'?: "resource_type";
  '_resource_id'?: "resource_id";
}

export interface CheckPermissionRequest__Output {
  'organization': (string);
  'principal'?: (string);
  'api_key_id'?: (string);
  'action': (string);
  'resource_type'?: (string);
  'resource_id'?: (string);
  '_principal'?: "principal";
  '_api_key_id'?: "api_key_id";
  '_resource_type'?: "resource_type";
  '_resource_id'?: "resource_id";
}
