// Original file: switchyard/admin/v1/teams.proto


export interface UpdateTeamRequest {
  'organization'?: (string);
  'team_id'?: (string);
  'name'?: (string);
}

export interface UpdateTeamRequest__Output {
  'organization': (string);
  'team_id': (string);
  'name': (string);
}
