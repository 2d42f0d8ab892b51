// Spec 2.4: organization settings. Only what an owner has set is stored; reads fill in defaults.

export interface StoredSettings {
  /** The organization id (one record per configured organization). */
  organization_id: string;
  /**
   * No longer stored here (LevelDB migration 9, PostgreSQL migration 19 moved it to the organization
   * record, which settings read and write); typed so the migrations can read what older daemons left.
   */
  display_name?: string | null;
  logo_url?: string | null;
  email_from_name?: string | null;
  max_pending_invitations?: number;
  max_invitations_per_hour?: number;
  max_concurrent_runs?: number;
  max_workflows?: number;
  max_schedules?: number;
  max_queued_runs?: number;
  max_waiting_runs?: number;
  max_webhooks?: number;
  max_active_jobs?: number;
  run_wait_timeout_seconds?: number;
  updated_at: string;
  updated_by: string | null;
}

/** Settings as read: every field resolved (stored value, else the default). */
export interface OrganizationSettings {
  organization_id: string;
  display_name: string;
  logo_url: string | null;
  email_from_name: string | null;
  max_pending_invitations: number;
  max_invitations_per_hour: number;
  /** Workflow runs in progress at once (contract 12); more wait in the queue. */
  max_concurrent_runs: number;
  /** Live workflow definitions (names); registering another name past it is 422. */
  max_workflows: number;
  /** Live schedules over all its workflows; another past it is 422. */
  max_schedules: number;
  /** Runs queued at once; a submission past it is 429 (a schedule's fire is skipped). */
  max_queued_runs: number;
  /** Runs waiting for input at once; a submission past it is 429 (a schedule's fire is skipped). */
  max_waiting_runs: number;
  /** Live webhooks; another past it is 422. Default and ceiling: SERVICE_WEBHOOK_MAX_PER_ORG. */
  max_webhooks: number;
  /** Jobs queued or running at once; a submission past it is 429. */
  max_active_jobs: number;
  /**
   * How long a workflow run may wait for input before it fails `expired`, fixed when it begins to wait.
   * Default and ceiling: SERVICE_RUN_WAIT_TIMEOUT_MS (in whole seconds, rounded up).
   */
  run_wait_timeout_seconds: number;
  /** null while the organization runs on defaults only. */
  updated_at: string | null;
}

/** The text settings that null puts back to their defaults (the PUT body's nullable fields; `--reset` in the CLI). */
export const resettableSettings = ['display_name', 'logo_url', 'email_from_name'] as const;

export const settingsDefaults = {
  logo_url: null,
  email_from_name: null,
  max_pending_invitations: 100,
  max_invitations_per_hour: 20,
  max_concurrent_runs: 4,
  max_workflows: 100,
  max_schedules: 50,
  max_queued_runs: 200,
  max_waiting_runs: 200,
  max_active_jobs: 200,
} as const;

/** Bounds of the editable fields (validation and docs share them). */
export const settingsBounds = {
  displayNameMax: 200,
  emailFromNameMax: 100,
  logoUrlMax: 2048,
  maxPendingInvitations: 10_000,
  maxInvitationsPerHour: 1_000,
  maxConcurrentRuns: 1_000,
  /** Server maximums of the workflow caps: an owner may lower a cap, never raise it past these. */
  maxWorkflows: 1_000,
  maxSchedules: 500,
  maxQueuedRuns: 10_000,
  maxWaitingRuns: 10_000,
  maxActiveJobs: 10_000,
  /** The schema's bound; the server maximum is SERVICE_WEBHOOK_MAX_PER_ORG (checked by the service). */
  maxWebhooks: 100_000,
  /** The schema's bound (int32 seconds); the server maximum is SERVICE_RUN_WAIT_TIMEOUT_MS (checked by the service). */
  runWaitTimeoutSeconds: 2_147_483_647,
} as const;
