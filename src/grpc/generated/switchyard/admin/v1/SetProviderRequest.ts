// Original file: switchyard/admin/v1/providers.proto


export interface SetProviderRequest {
  'name'?: (string);
  'tier'?: (string);
  'cost_usd'?: (number | string);
  'models'?: (string)[];
  'clear_models'?: (boolean);
  'enabled'?: (boolean);
  'drained'?: (boolean);
  '_tier'?: "tier";
  '_cost_usd'?: "cost_usd";
  '_enabled'?: "enabled";
  '_drained'?: "drained";
}

export interface SetProviderRequest__Output {
  'name': (string);
  'tier'?: (string);
  'cost_usd'?: (number);
  'models': (string)[];
  'clear_models': (boolean);
  'enabled'?: (boolean);
  'drained'?: (boolean);
  '_tier'?: "tier";
  '_cost_usd'?: "cost_usd";
  '_enabled'?: "enabled";
  '_drained'?: "drained";
}
