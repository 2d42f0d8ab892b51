// Original file: switchyard/admin/v1/providers.proto


export interface RouteRejection {
  'provider'?: (string);
  'reason'?: (string);
}

export interface RouteRejection__Output {
  'provider': (string);
  'reason': (string);
}
