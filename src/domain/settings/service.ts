import { fieldReasons, notFound, validationFailed } from '../../errors.js';
import type { Collection } from '../../storage/collection.js';
import { nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import type { AuditLog } from '../audit/service.js';
import { isOperator, type Actor } from '../identity/caller.js';
import { organizationRef, type PermissionEngine } from '../identity/permissions.js';
import { organizationLock, type OrganizationService } from '../identity/organizations.js';
import { settingsPatchSchema } from './schemas.js';
import { createSettingsStore } from './store.js';
import { settingsDefaults, type OrganizationSettings, type StoredSettings } from './types.js';

/** Spec 2.4: read (settings.read, member+) and partial update (settings.update, owner). */
export class SettingsService {
  private readonly store: Collection<StoredSettings>;

  constructor(
    private readonly storage: Storage,
    private readonly permissions: PermissionEngine,
    private readonly organizations: OrganizationService,
    private readonly audit: AuditLog,
    /** The server maximum of `max_webhooks` (SERVICE_WEBHOOK_MAX_PER_ORG), and its default. */
    private readonly maxWebhooks = Number.MAX_SAFE_INTEGER,
    /** SERVICE_RUN_WAIT_TIMEOUT_MS: the ceiling of `run_wait_timeout_seconds`, and its default. */
    private readonly maxRunWaitMs = 604_800_000,
  ) {
    this.store = createSettingsStore(storage);
  }

  async getSettings(actor: Actor, organizationId: string): Promise<OrganizationSettings> {
    await this.permissions.authorize(actor, 'settings.read', organizationRef(organizationId));
    return this.resolveSettings(organizationId);
  }

  /** Validates `input` with the same schema as the HTTP body (422 naming every failing field). */
  async updateSettings(actor: Actor, organizationId: string, input: unknown): Promise<OrganizationSettings> {
    await this.permissions.authorize(actor, 'settings.update', organizationRef(organizationId));
    const parsed = settingsPatchSchema.safeParse(input ?? {});
    if (!parsed.success) {
      throw validationFailed(fieldReasons(parsed.error.issues));
    }
    const patch = parsed.data;
    if (patch.max_webhooks !== undefined && patch.max_webhooks > this.maxWebhooks)
      throw validationFailed({ max_webhooks: `must be at most ${this.maxWebhooks} (SERVICE_WEBHOOK_MAX_PER_ORG)` });
    if (patch.run_wait_timeout_seconds !== undefined && patch.run_wait_timeout_seconds > this.maxRunWaitSeconds())
      throw validationFailed({
        run_wait_timeout_seconds: `must be at most ${this.maxRunWaitSeconds()} (SERVICE_RUN_WAIT_TIMEOUT_MS)`,
      });
    const { display_name: displayName, ...stored } = patch;
    const locks = [`settings:${organizationId}`, ...(displayName === undefined ? [] : [organizationLock(organizationId)])];
    await this.storage.transaction({ locks }, async (tx) => {
      const current = await tx.get(this.store, organizationId);
      // The display name is the organization record's (one name, shown everywhere and in mail).
      const name =
        displayName === undefined ? undefined : await this.organizations.setDisplayNameIn(tx, organizationId, displayName);
      const next: StoredSettings = {
        ...current,
        organization_id: organizationId,
        updated_at: nowIso(),
        updated_by: isOperator(actor) ? null : actor.principalId,
      };
      for (const [key, value] of Object.entries(stored) as [keyof typeof stored, unknown][]) {
        if (value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
      }
      delete next.display_name;
      this.audit.record(tx, actor, {
        organization_id: organizationId,
        action: 'settings.update',
        target: { type: 'organization_settings', id: organizationId },
        before: { ...withoutStamp(current ?? {}), ...(name && { display_name: name.before }) },
        after: { ...withoutStamp(next), ...(name && { display_name: name.after }) },
      });
      await tx.put(this.store, next);
    });
    return this.resolveSettings(organizationId);
  }

  /**
   * How long a run of the organization may wait for input, in ms: its `run_wait_timeout_seconds`,
   * never past SERVICE_RUN_WAIT_TIMEOUT_MS (nor past it when the organization runs on the default).
   */
  async runWaitTimeoutMs(organizationId: string, tx?: Tx): Promise<number> {
    const stored = await this.store.in(tx).get(organizationId);
    return Math.min((stored?.run_wait_timeout_seconds ?? Infinity) * 1000, this.maxRunWaitMs);
  }

  /** The ceiling of `run_wait_timeout_seconds`: SERVICE_RUN_WAIT_TIMEOUT_MS in whole seconds, rounded up. */
  private maxRunWaitSeconds(): number {
    return Math.ceil(this.maxRunWaitMs / 1000);
  }

  async countSettings(): Promise<number> {
    return this.store.count();
  }

  /** Effective settings for domain use (no permission check): stored values over defaults. */
  async resolveSettings(organizationId: string, tx?: Tx): Promise<OrganizationSettings> {
    const org = await this.organizations.readOrganization(organizationId, tx);
    if (org === undefined) throw notFound('organization');
    const stored = await this.store.in(tx).get(organizationId);
    return {
      organization_id: organizationId,
      display_name: org.display_name,
      logo_url: stored?.logo_url ?? settingsDefaults.logo_url,
      email_from_name: stored?.email_from_name ?? settingsDefaults.email_from_name,
      max_pending_invitations: stored?.max_pending_invitations ?? settingsDefaults.max_pending_invitations,
      max_invitations_per_hour: stored?.max_invitations_per_hour ?? settingsDefaults.max_invitations_per_hour,
      max_concurrent_runs: stored?.max_concurrent_runs ?? settingsDefaults.max_concurrent_runs,
      max_workflows: stored?.max_workflows ?? settingsDefaults.max_workflows,
      max_schedules: stored?.max_schedules ?? settingsDefaults.max_schedules,
      max_queued_runs: stored?.max_queued_runs ?? settingsDefaults.max_queued_runs,
      max_waiting_runs: stored?.max_waiting_runs ?? settingsDefaults.max_waiting_runs,
      // A server maximum lowered after an owner set more still holds.
      max_webhooks: Math.min(stored?.max_webhooks ?? this.maxWebhooks, this.maxWebhooks),
      max_active_jobs: stored?.max_active_jobs ?? settingsDefaults.max_active_jobs,
      run_wait_timeout_seconds: Math.min(stored?.run_wait_timeout_seconds ?? this.maxRunWaitSeconds(), this.maxRunWaitSeconds()),
      updated_at: stored?.updated_at ?? null,
    };
  }
}

/** The settings fields a person changed: which organization, who and when are the audit record's own. */
function withoutStamp(settings: Partial<StoredSettings>): Partial<StoredSettings> {
  const { organization_id: _org, updated_at: _at, updated_by: _by, ...fields } = settings;
  return fields;
}
