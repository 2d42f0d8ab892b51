import { z } from 'zod';
import { cleanText } from '../schemas.js';
import { settingsBounds } from './types.js';

// One schema validates the PUT body (HTTP and gRPC alike), types the service input and feeds OpenAPI.

const httpUrl = z
  .string()
  .trim()
  .max(settingsBounds.logoUrlMax, `at most ${settingsBounds.logoUrlMax} characters`)
  .pipe(z.url({ protocol: /^https?$/, message: 'must be an http or https URL' }));

const boundedInt = (max: number) =>
  z.number('must be an integer').int('must be an integer').min(1, 'must be at least 1').max(max, `must be at most ${max}`);

/** PUT body: any subset of the fields; null clears a text field back to its default. */
export const settingsPatchSchema = z
  .object({
    display_name: cleanText(settingsBounds.displayNameMax).nullable().optional(),
    logo_url: httpUrl.nullable().optional(),
    email_from_name: cleanText(settingsBounds.emailFromNameMax).nullable().optional(),
    max_pending_invitations: boundedInt(settingsBounds.maxPendingInvitations).optional(),
    max_invitations_per_hour: boundedInt(settingsBounds.maxInvitationsPerHour).optional(),
    max_concurrent_runs: boundedInt(settingsBounds.maxConcurrentRuns).optional(),
    max_workflows: boundedInt(settingsBounds.maxWorkflows).optional(),
    max_schedules: boundedInt(settingsBounds.maxSchedules).optional(),
    max_queued_runs: boundedInt(settingsBounds.maxQueuedRuns).optional(),
    max_waiting_runs: boundedInt(settingsBounds.maxWaitingRuns).optional(),
    max_webhooks: boundedInt(settingsBounds.maxWebhooks).optional(),
    max_active_jobs: boundedInt(settingsBounds.maxActiveJobs).optional(),
    run_wait_timeout_seconds: boundedInt(settingsBounds.runWaitTimeoutSeconds).optional(),
  })
  // Unknown keys fail by name (a typo is reported as its own field, beside every other failing one).
  .catchall(z.unknown().refine(() => false, 'not a settings field'));

export type SettingsPatch = z.output<typeof settingsPatchSchema>;

export const settingsSchema = z.object({
  organization_id: z.uuid(),
  display_name: z.string(),
  logo_url: z.string().nullable(),
  email_from_name: z.string().nullable(),
  max_pending_invitations: z.number().int(),
  max_invitations_per_hour: z.number().int(),
  max_concurrent_runs: z.number().int(),
  max_workflows: z.number().int(),
  max_schedules: z.number().int(),
  max_queued_runs: z.number().int(),
  max_waiting_runs: z.number().int(),
  max_webhooks: z.number().int(),
  max_active_jobs: z.number().int(),
  run_wait_timeout_seconds: z.number().int(),
  updated_at: z.iso.datetime().nullable(),
});
