// Original file: switchyard/admin/v1/providers.proto


export interface UnavailableModel {
  'model'?: (string);
  'reason'?: (string);
}

export interface UnavailableModel__Output {
  'model': (string);
  'reason': (string);
}
