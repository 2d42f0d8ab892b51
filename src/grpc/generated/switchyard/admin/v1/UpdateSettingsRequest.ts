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
  'max_workflows'?: (number);
  'max_schedules'?: (number);
  'max_queued_runs'?: (number);
  'max_waiting_runs'?: (number);
  'max_webhooks'?: (number);
  'max_active_jobs'?: (number);
  'run_wait_timeout_seconds'?: (number);
  '_display_name'?: "display_name";
  '_logo_url'?: "logo_url";
  '_email_from_name'?: "email_from_name";
  '_max_pending_invitations'?: "max_pending_invitations";
  '_max_invitations_per_hour'?: "max_invitations_per_hour";
  '_max_concurrent_runs'?: "max_concurrent_runs";
  '_max_workflows'?: "max_workflows";
  '_max_schedules'?: "max_schedules";
  '_max_queued_runs'?: "max_queued_runs";
  '_max_waiting_runs'?: "max_waiting_runs";
  '_max_webhooks'?: "max_webhooks";
  '_max_active_jobs'?: "max_active_jobs";
  '_run_wait_timeout_seconds'?: "run_wait_timeout_seconds";
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
  'max_workflows'?: (number);
  'max_schedules'?: (number);
  'max_queued_runs'?: (number);
  'max_waiting_runs'?: (number);
  'max_webhooks'?: (number);
  'max_active_jobs'?: (number);
  'run_wait_timeout_seconds'?: (number);
  '_display_name'?: "display_name";
  '_logo_url'?: "logo_url";
  '_email_from_name'?: "email_from_name";
  '_max_pending_invitations'?: "max_pending_invitations";
  '_max_invitations_per_hour'?: "max_invitations_per_hour";
  '_max_concurrent_runs'?: "max_concurrent_runs";
  '_max_workflows'?: "max_workflows";
  '_max_schedules'?: "max_schedules";
  '_max_queued_runs'?: "max_queued_runs";
  '_max_waiting_runs'?: "max_waiting_runs";
  '_max_webhooks'?: "max_webhooks";
  '_max_active_jobs'?: "max_active_jobs";
  '_run_wait_timeout_seconds'?: "run_wait_timeout_seconds";
}
