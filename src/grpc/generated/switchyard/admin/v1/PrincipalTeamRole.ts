// Original file: switchyard/admin/v1/principals.proto


export interface PrincipalTeamRole {
  'team_id'?: (string);
  'team_name'?: (string);
  'role'?: (string);
  'membership_id'?: (string);
}

export interface PrincipalTeamRole__Output {
  'team_id': (string);
  'team_name': (string);
  'role': (string);
  'membership_id': (string);
}
