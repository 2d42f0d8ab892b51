// Original file: switchyard/admin/v1/teams.proto


export interface CreateTeamRequest {
  'organization'?: (string);
  'name'?: (string);
}

export interface CreateTeamRequest__Output {
  'organization': (string);
  'name': (string);
}
