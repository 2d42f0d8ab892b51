// Original file: switchyard/admin/v1/teams.proto


export interface ListTeamsRequest {
  'organization'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
}

export interface ListTeamsRequest__Output {
  'organization': (string);
  'limit': (number);
  'cursor': (string);
}
