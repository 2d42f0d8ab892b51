// Original file: switchyard/admin/v1/providers.proto


export interface RouteCandidate {
  'provider'?: (string);
  'cost_usd'?: (number | string);
}

export interface RouteCandidate__Output {
  'provider': (string);
  'cost_usd': (number);
}
