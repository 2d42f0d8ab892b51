// Original file: switchyard/admin/v1/organizations.proto


export interface UpdateOrganizationRequest {
  'organization'?: (string);
  'slug'?: (string);
  'display_name'?: (string);
  '_slug'?: "slug";
  '_display_name'?: "display_name";
}

export interface UpdateOrganizationRequest__Output {
  'organization': (string);
  'slug'?: (string);
  'display_name'?: (string);
  '_slug'?: "slug";
  '_display_name'?: "display_name";
}
