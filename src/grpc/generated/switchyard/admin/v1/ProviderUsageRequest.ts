// Original file: switchyard/admin/v1/providers.proto


export interface ProviderUsageRequest {
  'organization'?: (string);
  'since'?: (string);
  'until'?: (string);
  'provider'?: (string);
  '_since'?: "since";
  '_until'?: "until";
  '_provider'?: "provider";
}

export interface ProviderUsageRequest__Output {
  'organization': (string);
  'since'?: (string);
  'until'?: (string);
  'provider'?: (string);
  '_since'?: "since";
  '_until'?: "until";
  '_provider'?: "provider";
}
