// Original file: switchyard/admin/v1/organizations.proto


export interface CreateOrganizationRequest {
  'slug'?: (string);
  'display_name'?: (string);
  'owner_principal_id'?: (string);
  'owner_email'?: (string);
  '_display_name'?: "display_name";
  'owner'?: "owner_principal_id"|"owner_email";
}

export interface CreateOrganizationRequest__Output {
  'slug': (string);
  'display_name'?: (string);
  'owner_principal_id'?: (string);
  'owner_email'?: (string);
  '_display_name'?: "display_name";
  'owner'?: "owner_principal_id"|"owner_email";
}
