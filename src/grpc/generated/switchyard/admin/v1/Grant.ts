// Original file: switchyard/admin/v1/grants.proto


export interface Grant {
  'id'?: (string);
  'organization_id'?: (string);
  'principal_id'?: (string);
  'action'?: (string);
  'resource_type'?: (string);
  'resource_id'?: (string);
  'created_by'?: (string);
  'created_at'?: (string);
  '_created_by'?: "created_by";
}

export interface Grant__Output {
  'id': (string);
  'organization_id': (string);
  'principal_id': (string);
  'action': (string);
  'resource_type': (string);
  'resource_id': (string);
  'created_by'?: (string);
  'created_at': (string);
  '_created_by'?: "created_by";
}
