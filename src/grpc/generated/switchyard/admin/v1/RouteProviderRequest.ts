// Original file: switchyard/admin/v1/providers.proto


export interface RouteProviderRequest {
  'modality'?: (string);
  'tier'?: (string);
  'model'?: (string);
  '_tier'?: "tier";
  '_model'?: "model";
}

export interface RouteProviderRequest__Output {
  'modality': (string);
  'tier'?: (string);
  'model'?: (string);
  '_tier'?: "tier";
  '_model'?: "model";
}
