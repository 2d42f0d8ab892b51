// Original file: switchyard/admin/v1/teams.proto


export interface GetTeamRequest {
  'organization'?: (string);
  'team_id'?: (string);
}

export interface GetTeamRequest__Output {
  'organization': (string);
  'team_id': (string);
}
