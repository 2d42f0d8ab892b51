import { isDeepStrictEqual } from 'node:util';
import type { Collection, Page, PageOptions } from '../../storage/collection.js';
import { newSortableId, nowIso, sortableIdAt } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import { isOperator, type Actor, type Origin } from '../identity/caller.js';
import { organizationRef, type PermissionEngine } from '../identity/permissions.js';
import type { AuditFilters } from './schemas.js';
import { createAuditStore, NO_ORGANIZATION } from './store.js';
import type { AuditActor, AuditChange, AuditRecord } from './types.js';

const ID_PREFIX = 'aud_';
/** Field names whose values are secrets (hashes and sealed secrets included): recorded as changed, never shown. */
const SECRET_FIELD = /secret|hash|token|password|sealed|raw_key/i;
const MASK = '[redacted]';
/** Fields that change on every write and say nothing of what a person changed. */
const NOISE = new Set(['updated_at', 'last_used_at']);

/**
 * The writer: every change made by a person, a key or the operator goes into the change's own
 * transaction, so the record exists exactly when the change does.
 */
export class AuditLog {
  private readonly store: Collection<AuditRecord>;

  constructor(storage: Storage) {
    this.store = createAuditStore(storage);
  }

  record(tx: Tx, actor: Actor, change: AuditChange): void {
    this.recordAs(tx, auditActor(actor), actor.origin, change);
  }

  /**
   * The usual change: one record of an organization, before and after (one of them absent on a
   * creation or a deletion); its organization and the target's id are the record's own.
   */
  recordChange<R extends { id: string; organization_id: string | null }>(
    tx: Tx,
    actor: Actor,
    action: string,
    type: string,
    before: R | undefined,
    after: R | undefined,
  ): void {
    const record = (after ?? before)!;
    this.record(tx, actor, { organization_id: record.organization_id, action, target: { type, id: record.id }, before, after });
  }

  /** For a change whose actor is known otherwise (an invitation accepted through its link, anonymously). */
  recordAs(tx: Tx, actor: AuditActor, origin: Origin | undefined, change: AuditChange): void {
    const { before, after } = changedFields(change.before, change.after);
    tx.insert<AuditRecord>(this.store, {
      id: newSortableId(ID_PREFIX),
      organization_id: change.organization_id,
      actor,
      action: change.action,
      target: change.target,
      changes: { before, after },
      timestamp: nowIso(),
      request_id: origin?.requestId ?? null,
      source: origin?.source ?? 'system',
    });
  }
}

/**
 * Reading the audit log: an organization's (audit.read: admin), or, for the operator, the changes
 * made outside any organization (provider routing settings).
 */
export class AuditReadService {
  constructor(
    private readonly store: Collection<AuditRecord>,
    private readonly permissions: PermissionEngine,
  ) {}

  async listAuditLog(
    actor: Actor,
    organizationId: string | null,
    filters: AuditFilters,
    page: PageOptions = {},
  ): Promise<Page<AuditRecord>> {
    if (organizationId !== null) await this.permissions.authorize(actor, 'audit.read', organizationRef(organizationId));
    else if (!isOperator(actor)) throw new TypeError('only the operator reads changes made outside organizations');
    const within = {
      ...(filters.since === undefined ? {} : { from: sortableIdAt(ID_PREFIX, Date.parse(filters.since)) }),
      ...(filters.until === undefined ? {} : { before: sortableIdAt(ID_PREFIX, Date.parse(filters.until)) }),
    };
    const options = { ...page, within };
    const org = organizationId ?? NO_ORGANIZATION;
    if (filters.actor !== undefined && filters.action !== undefined)
      return this.store.listBy('organization_actor_action', [org, filters.actor, filters.action], options);
    if (filters.actor !== undefined) return this.store.listBy('organization_actor', [org, filters.actor], options);
    if (filters.action !== undefined) return this.store.listBy('organization_action', [org, filters.action], options);
    return this.store.listBy('organization', org, options);
  }
}

function auditActor(actor: Actor): AuditActor {
  if (isOperator(actor)) return { type: 'operator' };
  if (actor.portal !== undefined)
    return { type: 'portal_session', portal_session_id: actor.portal.sessionId, principal_id: actor.principalId };
  if (actor.apiKey !== undefined) return { type: 'api_key', api_key_id: actor.apiKey.id, principal_id: actor.principalId };
  return { type: 'principal', principal_id: actor.principalId, method: actor.method === 'jwt' ? 'jwt' : 'dev' };
}

/** The fields that differ between two versions of a record (all of them when one side is absent). */
function changedFields(
  before: object | undefined,
  after: object | undefined,
): { before: Record<string, unknown> | null; after: Record<string, unknown> | null } {
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const fields = new Set([...Object.keys(b), ...Object.keys(a)]);
  const was: Record<string, unknown> = {};
  const is: Record<string, unknown> = {};
  for (const field of fields) {
    if (NOISE.has(field) && before !== undefined && after !== undefined) continue;
    if (before !== undefined && after !== undefined && isDeepStrictEqual(b[field], a[field])) continue;
    const secret = SECRET_FIELD.test(field);
    if (before !== undefined) was[field] = secret && b[field] != null ? MASK : (b[field] ?? null);
    if (after !== undefined) is[field] = secret && a[field] != null ? MASK : (a[field] ?? null);
  }
  return { before: before === undefined ? null : was, after: after === undefined ? null : is };
}
