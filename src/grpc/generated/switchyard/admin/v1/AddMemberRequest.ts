// Original file: switchyard/admin/v1/members.proto


export interface AddMemberRequest {
  'organization'?: (string);
  'principal_id'?: (string);
  'email'?: (string);
  'role'?: (string);
  'team_id'?: (string);
  'member'?: "principal_id"|"email";
  '_team_id'?: "team_id";
}

export interface AddMemberRequest__Output {
  'organization': (string);
  'principal_id'?: (string);
  'email'?: (string);
  'role': (string);
  'team_id'?: (string);
  'member'?: "principal_id"|"email";
  '_team_id'?: "team_id";
}
