// Original file: switchyard/admin/v1/organizations.proto


export interface ListOrganizationsRequest {
  'limit'?: (number);
  'cursor'?: (string);
}

export interface ListOrganizationsRequest__Output {
  'limit': (number);
  'cursor': (string);
}
