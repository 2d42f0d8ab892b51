// Original file: switchyard/admin/v1/teams.proto


export interface DeleteTeamRequest {
  'organization'?: (string);
  'team_id'?: (string);
}

export interface DeleteTeamRequest__Output {
  'organization': (string);
  'team_id': (string);
}
