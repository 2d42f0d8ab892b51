// Original file: switchyard/admin/v1/members.proto


export interface Membership {
  'id'?: (string);
  'organization_id'?: (string);
  'team_id'?: (string);
  'principal_id'?: (string);
  'role'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  'email'?: (string);
  '_team_id'?: "team_id";
  '_email'?: "email";
}

export interface Membership__Output {
  'id': (string);
  'organization_id': (string);
  'team_id'?: (string);
  'principal_id': (string);
  'role': (string);
  'created_at': (string);
  'updated_at': (string);
  'email'?: (string);
  '_team_id'?: "team_id";
  '_email'?: "email";
}
