// Original file: switchyard/admin/v1/settings.proto


export interface OrganizationSettings {
  'organization_id'?: (string);
  'display_name'?: (string);
  'logo_url'?: (string);
  'email_from_name'?: (string);
  'max_pending_invitations'?: (number);
  'max_invitations_per_hour'?: (number);
  'updated_at'?: (string);
  'max_concurrent_runs'?: (number);
  'max_workflows'?: (number);
  'max_schedules'?: (number);
  'max_queued_runs'?: (number);
  'max_waiting_runs'?: (number);
  'max_webhooks'?: (number);
  'max_active_jobs'?: (number);
  'run_wait_timeout_seconds'?: (number);
  '_logo_url'?: "logo_url";
  '_email_from_name'?: "email_from_name";
  '_updated_at'?: "updated_at";
}

export interface OrganizationSettings__Output {
  'organization_id': (string);
  'display_name': (string);
  'logo_url'?: (string);
  'email_from_name'?: (string);
  'max_pending_invitations': (number);
  'max_invitations_per_hour': (number);
  'updated_at'?: (string);
  'max_concurrent_runs': (number);
  'max_workflows': (number);
  'max_schedules': (number);
  'max_queued_runs': (number);
  'max_waiting_runs': (number);
  'max_webhooks': (number);
  'max_active_jobs': (number);
  'run_wait_timeout_seconds': (number);
  '_logo_url'?: "logo_url";
  '_email_from_name'?: "email_from_name";
  '_updated_at'?: "updated_at";
}
