// Original file: switchyard/admin/v1/principals.proto


export interface Principal {
  'id'?: (string);
  'email'?: (string);
  'created_at'?: (string);
  'external_id'?: (string);
  '_email'?: "email";
  '_external_id'?: "external_id";
}

export interface Principal__Output {
  'id': (string);
  'email'?: (string);
  'created_at': (string);
  'external_id'?: (string);
  '_email'?: "email";
  '_external_id'?: "external_id";
}
