// Original file: switchyard/admin/v1/teams.proto


export interface Team {
  'id'?: (string);
  'organization_id'?: (string);
  'name'?: (string);
  'created_at'?: (string);
}

export interface Team__Output {
  'id': (string);
  'organization_id': (string);
  'name': (string);
  'created_at': (string);
}
