// Original file: switchyard/admin/v1/principals.proto


export interface LinkPrincipalRequest {
  'email'?: (string);
  'subject'?: (string);
}

export interface LinkPrincipalRequest__Output {
  'email': (string);
  'subject': (string);
}
