import type { Command } from 'commander';
import { resettableSettings, settingsBounds, settingsDefaults } from '../../domain/settings/types.js';
import type { OrganizationSettings__Output } from '../../grpc/generated/switchyard/admin/v1/OrganizationSettings.js';
import type { SettingsServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/SettingsService.js';
import type { UpdateSettingsRequest } from '../../grpc/generated/switchyard/admin/v1/UpdateSettingsRequest.js';
import type { AdminClient, Plain } from '../client.js';
import { parseInteger, shortTime } from '../format.js';
import { orgOption, repeatableChoiceOption, requireSomeChange } from '../options.js';
import { execute, type RecordView } from '../output.js';

type OrganizationSettings = Plain<OrganizationSettings__Output>;

const settings = (client: AdminClient) => client.service<SettingsServiceDefinition>('SettingsService');

function settingsRecord(s: OrganizationSettings): RecordView {
  const byDefault = (text: string) => ({ text, tone: 'muted' as const });
  return {
    kind: 'record',
    fields: [
      ['organization', s.organization_id],
      ['display name', s.display_name],
      ['logo url', s.logo_url ?? byDefault('none')],
      ['email from name', s.email_from_name ?? byDefault("default (SERVICE_EMAIL_FROM's name)")],
      ['max pending', String(s.max_pending_invitations)],
      ['max per hour', String(s.max_invitations_per_hour)],
      ['max runs', String(s.max_concurrent_runs)],
      ['max jobs', String(s.max_active_jobs)],
      ['run wait timeout', `${s.run_wait_timeout_seconds} s`],
      ['updated', s.updated_at === null ? byDefault('never (defaults)') : shortTime(s.updated_at)],
    ],
  };
}

interface SetOptions {
  org: string;
  displayName?: string;
  logoUrl?: string;
  emailFromName?: string;
  maxPending?: number;
  maxPerHour?: number;
  maxRuns?: number;
  maxJobs?: number;
  runWaitTimeout?: number;
  reset?: string[];
}

function updateRequest(opts: SetOptions): UpdateSettingsRequest {
  return {
    organization: opts.org,
    ...(opts.displayName === undefined ? {} : { display_name: opts.displayName }),
    ...(opts.logoUrl === undefined ? {} : { logo_url: opts.logoUrl }),
    ...(opts.emailFromName === undefined ? {} : { email_from_name: opts.emailFromName }),
    ...(opts.maxPending === undefined ? {} : { max_pending_invitations: opts.maxPending }),
    ...(opts.maxPerHour === undefined ? {} : { max_invitations_per_hour: opts.maxPerHour }),
    ...(opts.maxRuns === undefined ? {} : { max_concurrent_runs: opts.maxRuns }),
    ...(opts.maxJobs === undefined ? {} : { max_active_jobs: opts.maxJobs }),
    ...(opts.runWaitTimeout === undefined ? {} : { run_wait_timeout_seconds: opts.runWaitTimeout }),
    reset: opts.reset ?? [],
  };
}

/** `switchyard org settings get|set`: what invitation mail shows, and the invitation limits. */
export function registerOrgSettings(org: Command): void {
  const group = org
    .command('settings')
    .description("an organization's settings: mail branding, invitation limits and workflow runs at once");

  group
    .command('get')
    .description('every setting, defaults filled in')
    .addOption(orgOption())
    .action((opts: { org: string }, command: Command) =>
      execute(command, {
        label: `reading the settings of ${opts.org}`,
        run: (client) => settings(client).GetSettings({ organization: opts.org }),
        view: (s) => [settingsRecord(s)],
      }),
    );

  group
    .command('set')
    .description('change some settings; the others keep their values')
    .addOption(orgOption())
    .option('--display-name <name>', 'the name invitation mail shows (default: the slug)')
    .option('--logo-url <url>', 'an http(s) logo for invitation mail')
    .option('--email-from-name <name>', "the From name of invitation mail (default: SERVICE_EMAIL_FROM's)")
    .option(
      '--max-pending <n>',
      `pending invitations at most (1-${settingsBounds.maxPendingInvitations}, default ${settingsDefaults.max_pending_invitations})`,
      parseInteger,
    )
    .option(
      '--max-per-hour <n>',
      `invitations sent in any hour at most (1-${settingsBounds.maxInvitationsPerHour}, default ${settingsDefaults.max_invitations_per_hour})`,
      parseInteger,
    )
    .option(
      '--max-runs <n>',
      `workflow runs in progress at once (1-${settingsBounds.maxConcurrentRuns}, default ${settingsDefaults.max_concurrent_runs})`,
      parseInteger,
    )
    .option(
      '--max-jobs <n>',
      `jobs queued or running at once (1-${settingsBounds.maxActiveJobs}, default ${settingsDefaults.max_active_jobs})`,
      parseInteger,
    )
    .option(
      '--run-wait-timeout <seconds>',
      'seconds a workflow run may wait for input before it fails (1 to the server maximum, SERVICE_RUN_WAIT_TIMEOUT_MS; default that maximum)',
      parseInteger,
    )
    .addOption(
      repeatableChoiceOption('--reset <field>', 'put a text setting back to its default (repeatable)', resettableSettings),
    )
    .action((opts: SetOptions, command: Command) => {
      requireSomeChange(command, ['org']);
      return execute(command, {
        label: `changing the settings of ${opts.org}`,
        run: (client) => settings(client).UpdateSettings(updateRequest(opts)),
        fields: {
          display_name: '--display-name',
          logo_url: '--logo-url',
          email_from_name: '--email-from-name',
          max_pending_invitations: '--max-pending',
          max_invitations_per_hour: '--max-per-hour',
          max_concurrent_runs: '--max-runs',
          max_active_jobs: '--max-jobs',
          run_wait_timeout_seconds: '--run-wait-timeout',
        },
        view: (s) => [{ kind: 'message', text: 'Settings updated.', tone: 'good' }, settingsRecord(s)],
      });
    });
}
