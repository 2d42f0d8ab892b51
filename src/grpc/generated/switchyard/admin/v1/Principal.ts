// Original file: switchyard/admin/v1/principals.proto


export interface Principal {
  'id'?: (string);
  'email'?: (string);
  'created_at'?: (string);
  '_email'?: "email";
}

export interface Principal__Output {
  'id': (string);
  'email'?: (string);
  'created_at': (string);
  '_email'?: "email";
}
