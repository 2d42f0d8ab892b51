// Original file: switchyard/admin/v1/members.proto


export interface ListMembersRequest {
  'organization'?: (string);
  'team_id'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  '_team_id'?: "team_id";
}

export interface ListMembersRequest__Output {
  'organization': (string);
  'team_id'?: (string);
  'limit': (number);
  'cursor': (string);
  '_team_id'?: "team_id";
}
