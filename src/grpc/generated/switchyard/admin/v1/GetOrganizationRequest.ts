// Original file: switchyard/admin/v1/organizations.proto


export interface GetOrganizationRequest {
  'organization'?: (string);
}

export interface GetOrganizationRequest__Output {
  'organization': (string);
}
