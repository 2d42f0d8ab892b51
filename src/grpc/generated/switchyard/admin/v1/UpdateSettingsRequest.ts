// Original file: switchyard/admin/v1/settings.proto


export interface UpdateSettingsRequest {
  'organization'?: (string);
  'display_name'?: (string);
  'logo_url'?: (string);
  'email_from_name'?: (string);
  'max_pending_invitations'?: (number);
  'max_invitations_per_hour'?: (number);
  'reset'?: (string)[];
  'max_concurrent_runs'?: (number);
  '_display_name'?: "display_name";
  '_logo_url'?: "logo_url";
  '_email_from_name'?: "email_from_name";
  '_max_pending_invitations'?: "max_pending_invitations";
  '_max_invitations_per_hour'?: "max_invitations_per_hour";
  '_max_concurrent_runs'?: "max_concurrent_runs";
}

export interface UpdateSettingsRequest__Output {
  'organization': (string);
  'display_name'?: (string);
  'logo_url'?: (string);
  'email_from_name'?: (string);
  'max_pending_invitations'?: (number);
  'max_invitations_per_hour'?: (number);
  'reset': (string)[];
  'max_concurrent_runs'?: (number);
  '_display_name'?: "display_name";
  '_logo_url'?: "logo_url";
  '_email_from_name'?: "email_from_name";
  '_max_pending_invitations'?: "max_pending_invitations";
  '_max_invitations_per_hour'?: "max_invitations_per_hour";
  '_max_concurrent_runs'?: "max_concurrent_runs";
}
