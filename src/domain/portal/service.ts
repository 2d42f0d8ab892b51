import { randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { Collection } from '../../storage/collection.js';
import { newId, nowIso } from '../../storage/keys.js';
import type { Storage } from '../../storage/port.js';
import type { AuditLog } from '../audit/service.js';
import type { EventPayload } from '../events/catalog.js';
import type { EventLog } from '../events/service.js';
import { isOperator, type Actor, type Caller } from '../identity/caller.js';
import type { MembershipService } from '../identity/memberships.js';
import type { OrganizationService } from '../identity/organizations.js';
import { organizationRef, type PermissionEngine } from '../identity/permissions.js';
import { deriveKey, digestMatches, digestSecret } from '../secrets.js';
import { portalTtlSeconds, type CreatePortalSessionInput } from './schemas.js';
import { EVERY_SESSION } from './store.js';
import type { MintedPortalSession, PortalCapability, PortalSessionRecord } from './types.js';

// Tokens carry the session's id in clear (a point read finds the record) and a secret that is stored
// only as its digest and compared in constant time, as API keys are (digestSecret, digestMatches). The
// link's and the cookie's secrets differ, so a link seen in a log cannot be replayed as a cookie.
const LINK_TOKEN = /^psl_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;
const SESSION_TOKEN = /^([0-9a-f]{32})\.([A-Za-z0-9_-]{43})$/;

/** Ended sessions removed per sweep batch, in one transaction. */
const SWEEP_BATCH = 100;

function sessionLock(id: string): string {
  return `portal-session:${id}`;
}

function compact(id: string): string {
  return id.replaceAll('-', '');
}

function expand(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A refused link or cookie: the page says why, and never whether another organization exists. */
export class PortalRefusal extends Error {
  constructor(
    readonly reason: 'invalid' | 'used' | 'expired' | 'ended',
    message: string,
  ) {
    super(message);
  }
}

/** A signed-in portal browser: the caller the services see, and its CSRF token. */
export interface PortalSession {
  caller: Caller & { portal: NonNullable<Caller['portal']> };
  record: PortalSessionRecord;
  /** The synchronizer token every state-changing form and call must carry (tied to the cookie). */
  csrfToken: string;
}

export class PortalService {
  constructor(
    private readonly storage: Storage,
    private readonly sessions: Collection<PortalSessionRecord>,
    private readonly permissions: PermissionEngine,
    private readonly organizations: OrganizationService,
    private readonly memberships: MembershipService,
    private readonly audit: AuditLog,
    private readonly events: EventLog,
    /** The base links are minted under (SERVICE_PUBLIC_URL, else the HTTP listener). */
    readonly publicUrl: () => string,
  ) {}

  /** Mints a single-use link (admin, or the operator) for one organization. */
  async createSession(actor: Actor, organization: string, input: CreatePortalSessionInput): Promise<MintedPortalSession> {
    const org = await this.organizations.getOrganization(actor, organization);
    await this.permissions.authorize(actor, 'portal.create', organizationRef(org.id));
    let principalId: string;
    if (isOperator(actor)) {
      principalId = (await this.memberships.listOwners(org.id))[0]?.principal_id ?? '';
      if (principalId === '') throw new AppError('invalid_state', 'the organization has no owner to mint the session as');
    } else principalId = actor.principalId;
    const capabilities: PortalCapability[] = ['read'];
    if (input.capabilities?.includes('manage_webhooks') === true) capabilities.push('manage_webhooks');
    const now = Date.now();
    const secret = randomBytes(32).toString('base64url');
    const record: PortalSessionRecord = {
      id: newId(),
      organization_id: org.id,
      principal_id: principalId,
      capabilities,
      link_hash: digestSecret(secret).toString('hex'),
      link_used_at: null,
      session_hash: null,
      expires_at: new Date(now + (input.ttl_seconds ?? portalTtlSeconds.default) * 1000).toISOString(),
      created_at: nowIso(new Date(now)),
    };
    await this.storage.transaction({}, async (tx) => {
      this.audit.recordChange(tx, actor, 'portal_session.create', 'portal_session', undefined, record);
      this.events.append(tx, {
        kind: 'portal.session.created',
        organization_id: org.id,
        payload: {
          portal_session_id: record.id,
          principal_id: principalId,
          capabilities,
          expires_at: record.expires_at,
        } satisfies EventPayload<'portal.session.created'>,
      });
      await tx.put(this.sessions, record);
    });
    const token = `psl_${compact(record.id)}_${secret}`;
    return {
      id: record.id,
      organization_id: org.id,
      url: `${this.publicUrl().replace(/\/+$/, '')}/portal/enter?token=${token}`,
      expires_at: record.expires_at,
      capabilities,
    };
  }

  /** Exchanges a link's token (once) for the session cookie's value. */
  async enter(token: string): Promise<{ cookie: string; session: PortalSession }> {
    const match = LINK_TOKEN.exec(token);
    if (match === null) throw new PortalRefusal('invalid', 'This portal link is not valid.');
    const id = expand(match[1]);
    const found = await this.sessions.get(id);
    if (!digestMatches(match[2], found?.link_hash)) throw new PortalRefusal('invalid', 'This portal link is not valid.');
    const cookieSecret = randomBytes(32).toString('base64url');
    const record = await this.storage.transaction({ locks: [sessionLock(id)] }, async (tx) => {
      const current = (await tx.get(this.sessions, id))!;
      if (current.link_used_at !== null)
        throw new PortalRefusal('used', 'This portal link has been used already: ask for a new one.');
      if (Date.parse(current.expires_at) <= Date.now())
        throw new PortalRefusal('expired', 'This portal link has expired: ask for a new one.');
      const next: PortalSessionRecord = {
        ...current,
        link_used_at: nowIso(),
        session_hash: digestSecret(cookieSecret).toString('hex'),
      };
      this.audit.recordChange(tx, this.callerOf(next), 'portal_session.enter', 'portal_session', current, next);
      return tx.put(this.sessions, next);
    });
    const cookie = `${compact(id)}.${cookieSecret}`;
    return { cookie, session: this.sessionOf(record, cookieSecret) };
  }

  /** The session a cookie names, while it lasts. */
  async authenticate(cookie: string): Promise<PortalSession> {
    const match = SESSION_TOKEN.exec(cookie);
    if (match === null) throw new PortalRefusal('invalid', 'You are not signed in to the portal.');
    const record = await this.sessions.get(expand(match[1]));
    if (!digestMatches(match[2], record?.session_hash) || record === undefined)
      throw new PortalRefusal('invalid', 'You are not signed in to the portal.');
    if (Date.parse(record.expires_at) <= Date.now())
      throw new PortalRefusal('ended', 'Your portal session has ended: ask for a new link.');
    return this.sessionOf(record, match[2]);
  }

  /** Whether `presented` is the session's CSRF token (constant time). */
  checkCsrf(session: PortalSession, presented: string | undefined): boolean {
    if (presented === undefined) return false;
    const a = Buffer.from(presented);
    const b = Buffer.from(session.csrfToken);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /**
   * Removes the records of sessions (links used or not) that ended `keepEndedMs` ago or longer, up to
   * `limit` of them in one transaction of the background lane: the sweep loop's work. Answers how many
   * went and whether a full batch was found (more may wait).
   */
  async sweepEnded(keepEndedMs: number, limit = SWEEP_BATCH): Promise<{ removed: number; more: boolean }> {
    const cutoff = new Date(Date.now() - keepEndedMs).toISOString();
    const ids = (await this.sessions.range('expiry', EVERY_SESSION, { before: cutoff, limit })).map((e) => e.id);
    if (ids.length === 0) return { removed: 0, more: false };
    const removed = await this.storage.background.transaction({ locks: ids.map(sessionLock) }, async (tx) => {
      let n = 0;
      for (const record of await tx.getMany(this.sessions, ids)) {
        if (record === undefined || record.expires_at >= cutoff) continue;
        await tx.delete(this.sessions, record.id);
        n++;
      }
      return n;
    });
    return { removed, more: ids.length === limit };
  }

  private sessionOf(record: PortalSessionRecord, cookieSecret: string): PortalSession {
    const csrfToken = deriveKey(Buffer.from(cookieSecret), 'portal-csrf').toString('base64url');
    return { caller: this.callerOf(record), record, csrfToken };
  }

  private callerOf(record: PortalSessionRecord): PortalSession['caller'] {
    return {
      principalId: record.principal_id,
      method: 'portal',
      portal: { sessionId: record.id, organizationId: record.organization_id, capabilities: record.capabilities },
    };
  }
}
