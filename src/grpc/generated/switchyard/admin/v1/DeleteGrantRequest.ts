// Original file: switchyard/admin/v1/grants.proto


export interface DeleteGrantRequest {
  'organization'?: (string);
  'grant_id'?: (string);
}

export interface DeleteGrantRequest__Output {
  'organization': (string);
  'grant_id': (string);
}
