// Original file: switchyard/admin/v1/principals.proto


export interface GetPrincipalRequest {
  'principal'?: (string);
}

export interface GetPrincipalRequest__Output {
  'principal': (string);
}
