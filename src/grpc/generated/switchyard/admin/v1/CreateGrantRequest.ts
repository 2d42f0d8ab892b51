// Original file: switchyard/admin/v1/grants.proto


export interface CreateGrantRequest {
  'organization'?: (string);
  'principal_id'?: (string);
  'action'?: (string);
  'resource_type'?: (string);
  'resource_id'?: (string);
}

export interface CreateGrantRequest__Output {
  'organization': (string);
  'principal_id': (string);
  'action': (string);
  'resource_type': (string);
  'resource_id': (string);
}
