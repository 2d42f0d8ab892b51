// Original file: switchyard/admin/v1/providers.proto


export interface ProviderHealth {
  'status'?: (string);
  'checked_at'?: (string);
  'reason'?: (string);
  '_checked_at'?: "checked_at";
  '_reason'?: "reason";
}

export interface ProviderHealth__Output {
  'status': (string);
  'checked_at'?: (string);
  'reason'?: (string);
  '_checked_at'?: "checked_at";
  '_reason'?: "reason";
}
