import { z } from 'zod';
import { AppError, fieldReasons, validationFailed } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Page, PageOptions } from '../../storage/collection.js';
import { newId, nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import { outboxEntryLock, type OutboxService } from '../email/outbox.js';
import type { AuditLog } from '../audit/service.js';
import type { EventPayload } from '../events/catalog.js';
import type { EventLog } from '../events/service.js';
import { isOperator, type Actor, type Caller, type Origin } from '../identity/caller.js';
import { membersLock, type MembershipService } from '../identity/memberships.js';
import {
  atOrganization,
  organizationRef,
  type Action,
  type PermissionEngine,
  type ResourceLocation,
} from '../identity/permissions.js';
import { principalEmailLock, type PrincipalService } from '../identity/principals.js';
import type { SettingsService } from '../settings/service.js';
import type { OrganizationSettings } from '../settings/types.js';
import { exactly, normalizeEmail } from '../schemas.js';
import { createInvitationBody, type InvitationView } from './schemas.js';
import { InvitationStore, statusKey } from './store.js';
import type { InvitationTokens } from './tokens.js';
import { effectiveStatus, type AcceptResult, type Invitation, type InvitationStatus } from './types.js';

/** An invitation as shown to users (invitationSchema): never the token hash; its effective status. */
export function viewInvitation(invitation: Invitation): InvitationView {
  const { token_hash: _hidden, ...view } = invitation;
  return exactly<InvitationView>()({ ...view, status: effectiveStatus(invitation) });
}

export interface InvitationSettings {
  /** SERVICE_INVITE_TTL_MS */
  ttlMs: number;
  /** SERVICE_INVITE_PER_RECIPIENT_PER_HOUR: mails one address may receive per hour, all organizations together. */
  perRecipientPerHour: number;
}

export interface ListInvitationsOptions extends PageOptions {
  status?: InvitationStatus;
}

const uuid = z.uuid();
/** Overdue invitations expired per sweep batch. */
const EXPIRY_BATCH = 100;
type InvitationLimit = 'max_pending_invitations' | 'max_invitations_per_hour' | 'invitations_per_recipient_per_hour';

const limitMessages: Record<InvitationLimit, (max: number) => string> = {
  max_pending_invitations: (max) => `the organization has reached its limit of ${max} pending invitations`,
  max_invitations_per_hour: (max) => `the organization has reached its limit of ${max} invitations in the last hour`,
  invitations_per_recipient_per_hour: (max) =>
    `this address has received ${max} invitations in the last hour, the most it may (all organizations together); try again later`,
};

function rateLimited(limit: InvitationLimit, max: number, retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError('rate_limited', limitMessages[limit](max), {
    retryAfterSeconds: seconds,
    details: { limit, max, retry_after_seconds: seconds },
  });
}

/** The lock every change to an organization's invitations holds (its pending limit, its hourly send log). */
function invitationsLock(organizationId: string): string {
  return `invitations:${organizationId}`;
}

/** The lock of one recipient address's hourly send log (taken with the organization's invitation lock). */
function recipientLock(email: string): string {
  return `invite-recipient:${email}`;
}

/**
 * The invitation workflow (spec 3.1). Every change to an organization's invitations is one
 * transaction under that organization's lock: the record, its indexes, the send log, the queued
 * mail (and the cancelled one) and the domain event. So limits are checked and consumed atomically.
 */
export class InvitationService {
  readonly store: InvitationStore;

  constructor(
    private readonly storage: Storage,
    private readonly permissions: PermissionEngine,
    private readonly principals: PrincipalService,
    private readonly memberships: MembershipService,
    private readonly settings: SettingsService,
    private readonly outbox: OutboxService,
    private readonly tokens: InvitationTokens,
    private readonly events: EventLog,
    private readonly audit: AuditLog,
    private readonly config: InvitationSettings,
    private readonly log: Logger,
  ) {
    this.store = new InvitationStore(storage);
  }

  /** Where an invitation lives (its organization). */
  async locateInvitation(id: string): Promise<ResourceLocation | undefined> {
    const invitation = await this.store.invitations.get(id);
    return invitation && atOrganization(invitation.organization_id);
  }

  async countInvitations(): Promise<number> {
    return this.store.invitations.count();
  }

  async countPendingInvitations(): Promise<number> {
    return this.store.invitations.countBy('expiry', 'pending');
  }

  /** Pending invitations that expire within `windowMs` from now (not those already past their expiry). */
  async countPendingExpiringWithin(windowMs: number): Promise<number> {
    const now = Date.now();
    return this.store.invitations.countRange('expiry', 'pending', {
      after: nowIso(new Date(now)),
      upTo: nowIso(new Date(now + windowMs)),
    });
  }

  /**
   * Runs `fn` in one transaction holding `locks` (the organization's invitation lock among them) and
   * the lock of the mail of the invitation `find` answers, so that `fn` may cancel that mail. Which
   * mail it is can only be read before the locks are held; it changes only under the organization's
   * lock (a resend), so a transaction that finds another one inside starts again with it.
   */
  private async withMailLocked<T>(
    locks: string[],
    find: (tx?: Tx) => Promise<Invitation | undefined>,
    fn: (tx: Tx, invitation: Invitation | undefined) => Promise<T>,
    storage: Storage = this.storage,
  ): Promise<T> {
    let mail = (await find())?.outbox_entry_id ?? null;
    for (;;) {
      const locked = mail;
      const outcome = await storage.transaction(
        { locks: locked === null ? locks : [...locks, outboxEntryLock(locked)] },
        async (tx): Promise<{ done: T } | { mail: string | null }> => {
          const invitation = await find(tx);
          const current = invitation?.outbox_entry_id ?? null;
          return current === locked ? { done: await fn(tx, invitation) } : { mail: current };
        },
      );
      if ('done' in outcome) return outcome.done;
      mail = outcome.mail;
    }
  }

  // -- create ----------------------------------------------------------------------------------

  /** Admin+ or an ACL grant for invitation.create on the organization; inviting an owner needs an owner. */
  async createInvitation(actor: Actor, input: unknown): Promise<InvitationView> {
    const parsed = createInvitationBody.safeParse(input);
    if (!parsed.success) {
      throw validationFailed(fieldReasons(parsed.error.issues));
    }
    const { organization_id: organizationId, role } = parsed.data;
    const email = normalizeEmail(parsed.data.email);
    await this.permissions.authorize(actor, 'invitation.create', organizationRef(organizationId));
    await this.permissions.requireAssignable(actor, organizationId, role, 'invite');

    // A send is counted against the organization's and the recipient's hourly limits: both locks.
    const locks = [invitationsLock(organizationId), recipientLock(email)];
    const invitation = await this.withMailLocked(
      locks,
      (tx) => this.store.findPending(organizationId, email, tx),
      async (tx, duplicate) => {
        const now = Date.now();
        const nowText = new Date(now).toISOString();
        if (duplicate !== undefined && Date.parse(duplicate.expires_at) > now) {
          throw new AppError('conflict', 'a pending invitation for this email already exists in the organization', {
            details: { invitation_id: duplicate.id },
          });
        }
        // The three counts this create checks (pending, the organization's hour, the address's hour): one read.
        await this.store.readCounts(tx, organizationId, email);
        const settings = await this.settings.resolveSettings(organizationId, tx);
        const max = settings.max_pending_invitations;
        // No slot frees on its own before the first pending invitation expires.
        const wait = await this.store.pendingLimitWait(tx, organizationId, now, max);
        if (wait !== undefined) throw rateLimited('max_pending_invitations', max, wait);
        // Past its expiry but not yet swept: expired here, making way for the new one.
        if (duplicate !== undefined) await this.expireInto(tx, duplicate, nowText);
        const id = newId();
        await this.consumeSendSlots(tx, { organization_id: organizationId, id, email }, settings.max_invitations_per_hour, now);

        const token = this.tokens.issue();
        const created: Invitation = {
          id,
          organization_id: organizationId,
          email,
          role,
          status: 'pending',
          expires_at: new Date(now + this.config.ttlMs).toISOString(),
          created_at: nowText,
          updated_at: nowText,
          created_by: isOperator(actor) ? null : actor.principalId,
          token_hash: token.hash,
          outbox_entry_id: null,
          send_count: 1,
          accepted_at: null,
          accepted_by: null,
          membership_id: null,
          revoked_at: null,
          revoked_by: null,
          expired_at: null,
        };
        created.outbox_entry_id = this.queueMail(tx, created, token.raw, settings);
        // Its id was just made (a random UUID): there is no earlier version to read.
        tx.saw(this.store.invitations, id, undefined);
        await this.store.putInvitation(tx, created, undefined);
        this.events.append(tx, {
          kind: 'invitation.created',
          organization_id: organizationId,
          payload: { invitation_id: id, email, role } satisfies EventPayload<'invitation.created'>,
        });
        this.audit.recordChange(tx, actor, 'invitation.create', 'invitation', undefined, created);
        return created;
      },
    );
    this.log.info({ invitation_id: invitation.id, organization_id: organizationId, role }, 'invitation created');
    return viewInvitation(invitation);
  }

  /**
   * Checks both sliding hours of a mail (creates and resends): the organization's and the
   * recipient's, across organizations. Records the send in both logs in `tx`; 429 when either is full.
   * `tx` holds the organization's invitation lock and the recipient's.
   */
  private async consumeSendSlots(
    tx: Tx,
    invitation: Pick<Invitation, 'organization_id' | 'id' | 'email'>,
    organizationMax: number,
    now: number,
  ): Promise<void> {
    const fields = { organization_id: invitation.organization_id, invitation_id: invitation.id };
    const orgWait = await this.store.sends.tryConsume(tx, invitation.organization_id, organizationMax, now, fields);
    if (orgWait !== null) throw rateLimited('max_invitations_per_hour', organizationMax, orgWait);
    const max = this.config.perRecipientPerHour;
    const recipientWait = await this.store.recipientSends.tryConsume(tx, invitation.email, max, now, fields);
    if (recipientWait !== null) throw rateLimited('invitations_per_recipient_per_hour', max, recipientWait);
  }

  /** Queues the invitation mail in `tx` (`settings`: its organization's, as read in `tx`); returns the outbox entry id. */
  private queueMail(tx: Tx, invitation: Invitation, rawToken: string, settings: OrganizationSettings): string {
    const entry = this.outbox.enqueueInvitationMail(tx, {
      organizationId: invitation.organization_id,
      to: invitation.email,
      rawToken,
      data: {
        invitation_id: invitation.id,
        organization_display_name: settings.display_name,
        logo_url: settings.logo_url,
        from_name: settings.email_from_name,
        role: invitation.role,
        expires_at: invitation.expires_at,
        ttl_ms: this.config.ttlMs,
      },
    });
    return entry.id;
  }

  // -- read ------------------------------------------------------------------------------------

  async listInvitations(
    actor: Actor,
    organizationId: string,
    options: ListInvitationsOptions = {},
  ): Promise<Page<InvitationView>> {
    await this.permissions.authorize(actor, 'invitation.read', organizationRef(organizationId));
    // A status filter reads an index of stored statuses: record the organization's overdue expiries first.
    if (options.status !== undefined) await this.expireOverdueIn(organizationId);
    const page =
      options.status === undefined
        ? await this.store.invitations.listBy('organization', organizationId, options)
        : await this.store.invitations.listBy('org_status', statusKey(organizationId, options.status), options);
    return { items: page.items.map(viewInvitation), nextCursor: page.nextCursor };
  }

  async getInvitation(actor: Actor, id: string): Promise<InvitationView> {
    const invitation = await this.authorizedInvitation(actor, 'invitation.read', id);
    return viewInvitation(invitation);
  }

  /** The invitation if the actor may act on it (by role, or a grant on it or on its organization); else 404 or 403. */
  private async authorizedInvitation(actor: Actor, action: Action, id: string): Promise<Invitation> {
    await this.permissions.authorize(actor, action, { type: 'invitation', id });
    return (await this.store.invitations.get(id))!;
  }

  // -- revoke and resend -----------------------------------------------------------------------

  async revokeInvitation(actor: Actor, id: string): Promise<InvitationView> {
    const found = await this.authorizedInvitation(actor, 'invitation.revoke', id);
    const next = await this.withMailLocked(
      [invitationsLock(found.organization_id)],
      (tx) => this.store.invitations.in(tx).get(id),
      async (tx, current) => {
        const invitation = current!;
        const status = effectiveStatus(invitation);
        if (status !== 'pending') {
          throw new AppError('invalid_state', `only a pending invitation can be revoked (this one is ${status})`, {
            details: { status },
          });
        }
        const now = nowIso();
        await this.outbox.cancelOutboxEntry(tx, invitation.outbox_entry_id);
        const revoked = await this.store.putInvitation(
          tx,
          {
            ...invitation,
            status: 'revoked',
            revoked_at: now,
            revoked_by: isOperator(actor) ? null : actor.principalId,
            updated_at: now,
          },
          invitation,
        );
        this.audit.recordChange(tx, actor, 'invitation.revoke', 'invitation', invitation, revoked);
        this.events.append(tx, {
          kind: 'invitation.revoked',
          organization_id: revoked.organization_id,
          payload: {
            invitation_id: revoked.id,
            email: revoked.email,
            role: revoked.role,
          } satisfies EventPayload<'invitation.revoked'>,
        });
        return revoked;
      },
    );
    return viewInvitation(next);
  }

  /**
   * A new token and a new mail for a pending invitation: the old link dies, the lifetime starts
   * again (the mail promises it), and the send counts against the hourly limit.
   */
  async resendInvitation(actor: Actor, id: string): Promise<InvitationView> {
    const found = await this.authorizedInvitation(actor, 'invitation.revoke', id);
    const locks = [invitationsLock(found.organization_id), recipientLock(found.email)];
    const next = await this.withMailLocked(
      locks,
      (tx) => this.store.invitations.in(tx).get(id),
      async (tx, current) => {
        const invitation = current!;
        const now = Date.now();
        if (invitation.status !== 'pending' || Date.parse(invitation.expires_at) <= now) {
          const status = invitation.status === 'pending' ? 'expired' : invitation.status;
          throw new AppError('invalid_state', `only a pending invitation can be re-sent (this one is ${status})`, {
            details: { status },
          });
        }
        const settings = await this.settings.resolveSettings(invitation.organization_id, tx);
        await this.outbox.cancelOutboxEntry(tx, invitation.outbox_entry_id);
        await this.consumeSendSlots(tx, invitation, settings.max_invitations_per_hour, now);
        const token = this.tokens.issue();
        const resent: Invitation = {
          ...invitation,
          token_hash: token.hash,
          expires_at: new Date(now + this.config.ttlMs).toISOString(),
          send_count: invitation.send_count + 1,
          updated_at: new Date(now).toISOString(),
        };
        resent.outbox_entry_id = this.queueMail(tx, resent, token.raw, settings);
        this.audit.recordChange(tx, actor, 'invitation.resend', 'invitation', invitation, resent);
        return this.store.putInvitation(tx, resent, invitation);
      },
    );
    this.log.info({ invitation_id: id, organization_id: next.organization_id }, 'invitation re-sent');
    return viewInvitation(next);
  }

  // -- accept ----------------------------------------------------------------------------------

  /**
   * Accept by link (public). The token is checked before anything about the invitation is told, so
   * unknown ids and wrong tokens look alike (invalid_token). The membership goes to the caller when
   * the request carries credentials, else to the principal of the invited email (created if absent).
   */
  async acceptInvitation(
    caller: Caller | null,
    id: string,
    token: string | undefined,
    origin: Origin | undefined = caller?.origin,
  ): Promise<AcceptResult> {
    const invalid = () => new AppError('invalid_token', 'the invitation link is not valid');
    if (!uuid.safeParse(id).success) throw invalid();
    const found = await this.store.invitations.get(id);
    if (found === undefined || !this.tokens.matches(token, found.token_hash)) throw invalid();
    if (caller?.apiKey !== undefined && caller.apiKey.organizationId !== found.organization_id) {
      throw new AppError('forbidden', 'an API key acts only inside its own organization; accept without it or as a user');
    }
    const organizationId = found.organization_id;
    const locks = [invitationsLock(organizationId), membersLock(organizationId)];
    // An anonymous accept may create the invited email's principal, in the acceptance transaction itself.
    if (caller === null) locks.push(principalEmailLock(found.email));
    const result = await this.withMailLocked(
      locks,
      (tx) => this.store.invitations.in(tx).get(id),
      async (tx, current): Promise<AcceptResult> => {
        const invitation = current!;
        if (!this.tokens.matches(token, invitation.token_hash)) throw invalid();
        if (invitation.status === 'accepted') throw new AppError('already_accepted', 'this invitation has already been accepted');
        if (invitation.status === 'revoked') throw new AppError('revoked', 'this invitation has been revoked');
        if (invitation.status === 'expired' || Date.parse(invitation.expires_at) <= Date.now()) {
          throw new AppError('expired', 'this invitation has expired; ask for a new one');
        }
        // One transaction: the invited email's principal (when new), the membership, the invitation,
        // the event and the cancelled mail. writeMembership sees the principal written here (tx.get).
        await this.outbox.cancelOutboxEntry(tx, invitation.outbox_entry_id);
        const principalId = caller?.principalId ?? (await this.principals.ensurePrincipalByEmail(invitation.email, tx)).id;
        const membership = await this.memberships.writeMembership(tx, organizationId, principalId, invitation.role);
        const now = nowIso();
        const accepted: Invitation = {
          ...invitation,
          status: 'accepted',
          accepted_at: now,
          accepted_by: principalId,
          membership_id: membership.id,
          updated_at: now,
        };
        await this.store.putInvitation(tx, accepted, invitation);
        if (caller !== null) this.audit.recordChange(tx, caller, 'invitation.accept', 'invitation', invitation, accepted);
        else
          this.audit.recordAs(tx, { type: 'principal', principal_id: principalId, method: 'invitation_link' }, origin, {
            organization_id: organizationId,
            action: 'invitation.accept',
            target: { type: 'invitation', id },
            before: invitation,
            after: accepted,
          });
        this.events.append(tx, {
          kind: 'invitation.accepted',
          organization_id: organizationId,
          payload: {
            invitation_id: id,
            email: invitation.email,
            role: invitation.role,
            membership_id: membership.id,
            principal_id: principalId,
          } satisfies EventPayload<'invitation.accepted'>,
        });
        return { status: 'accepted', invitation_id: id, organization_id: organizationId, membership_id: membership.id };
      },
    );
    this.log.info({ invitation_id: id, organization_id: organizationId }, 'invitation accepted');
    return result;
  }

  // -- expiry ----------------------------------------------------------------------------------

  /** One sweep batch: overdue pending invitations become expired, each in its own transaction under its organization's lock. */
  async expireOverdueInvitations(limit = EXPIRY_BATCH): Promise<{ expired: number; more: boolean }> {
    const ids = await this.store.overdueIds(nowIso(), limit);
    let expired = 0;
    for (const id of ids) {
      if (await this.expireIfOverdue(id, this.storage.background)) expired++;
    }
    if (expired > 0) this.log.info({ expired }, 'invitations expired');
    return { expired, more: ids.length === limit };
  }

  /** Expires the invitation when it is still pending and overdue (a transaction of `storage`); whether it did. */
  private async expireIfOverdue(id: string, storage: Storage = this.storage): Promise<boolean> {
    const found = await this.store.invitations.get(id);
    if (found === undefined) return false;
    return this.withMailLocked(
      [invitationsLock(found.organization_id)],
      (tx) => this.store.invitations.in(tx).get(id),
      async (tx, invitation) => {
        if (invitation?.status !== 'pending' || Date.parse(invitation.expires_at) > Date.now()) return false;
        await this.expireInto(tx, invitation, nowIso());
        return true;
      },
      storage,
    );
  }

  /** Records the expiry of one organization's overdue invitations (all of them, in batches). */
  private async expireOverdueIn(organizationId: string): Promise<void> {
    for (;;) {
      const ids = await this.store.overdueIdsIn(organizationId, nowIso(), EXPIRY_BATCH);
      for (const id of ids) await this.expireIfOverdue(id);
      if (ids.length < EXPIRY_BATCH) return;
    }
  }

  /** The expiry itself, and its mail cancelled: `tx` is one of withMailLocked's. */
  private async expireInto(tx: Tx, invitation: Invitation, now: string): Promise<void> {
    await this.outbox.cancelOutboxEntry(tx, invitation.outbox_entry_id);
    await this.store.putInvitation(tx, { ...invitation, status: 'expired', expired_at: now, updated_at: now }, invitation);
  }
}
