// Original file: switchyard/admin/v1/organizations.proto


export interface Organization {
  'id'?: (string);
  'slug'?: (string);
  'display_name'?: (string);
  'created_by'?: (string);
  'created_at'?: (string);
  '_created_by'?: "created_by";
}

export interface Organization__Output {
  'id': (string);
  'slug': (string);
  'display_name': (string);
  'created_by'?: (string);
  'created_at': (string);
  '_created_by'?: "created_by";
}
