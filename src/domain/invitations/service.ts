import { z } from 'zod';
import { AppError, fieldReasons, validationFailed } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Page, PageOptions } from '../../storage/collection.js';
import type { Storage } from '../../storage/db.js';
import { newId, nowIso } from '../../storage/keys.js';
import { UnitOfWork } from '../../storage/unit-of-work.js';
import type { OutboxService } from '../email/outbox.js';
import type { EventLog } from '../events/service.js';
import { isOperator, type Actor, type Caller } from '../identity/caller.js';
import type { MembershipService } from '../identity/memberships.js';
import {
  atOrganization,
  organizationRef,
  type Action,
  type PermissionEngine,
  type ResourceLocation,
} from '../identity/permissions.js';
import { principalEmailLock, type PrincipalService } from '../identity/principals.js';
import type { SettingsService } from '../settings/service.js';
import { normalizeEmail } from '../schemas.js';
import { createInvitationBody } from './schemas.js';
import { InvitationStore, statusKey } from './store.js';
import type { InvitationTokens } from './tokens.js';
import {
  effectiveStatus,
  viewInvitation,
  type AcceptResult,
  type Invitation,
  type InvitationStatus,
  type InvitationView,
} from './types.js';

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

/** The lock of one recipient address's hourly send log (taken with the organization's invitation lock). */
function recipientLock(email: string): string {
  return `invite-recipient:${email}`;
}

/**
 * The invitation workflow (spec 3.1). Every change to an organization's invitations runs under
 * that organization's lock and commits one batch: the record, its indexes, the send log, the
 * queued mail and the domain event. So limits are checked and consumed atomically.
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
    private readonly config: InvitationSettings,
    private readonly log: Logger,
  ) {
    this.store = new InvitationStore(storage);
  }

  /** Where an invitation lives (its organization). */
  locateInvitation(id: string): ResourceLocation | undefined {
    const invitation = this.store.invitations.read(id);
    return invitation && atOrganization(invitation.organization_id);
  }

  async countInvitations(): Promise<number> {
    return this.store.invitations.count();
  }

  async countPendingInvitations(): Promise<number> {
    return this.store.invitations.countBy('expiry', 'pending');
  }

  private lock<T>(organizationId: string, fn: () => Promise<T>): Promise<T> {
    return this.storage.locks.run(`invitations:${organizationId}`, fn);
  }

  /** The organization's lock and the recipient's: a send is counted against both hourly limits. */
  private lockForSend<T>(organizationId: string, email: string, fn: () => Promise<T>): Promise<T> {
    return this.storage.locks.runAll([`invitations:${organizationId}`, recipientLock(email)], fn);
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

    return this.lockForSend(organizationId, email, async () => {
      const now = Date.now();
      const nowText = new Date(now).toISOString();

      const duplicate = await this.store.findPending(organizationId, email);
      if (duplicate !== undefined) {
        if (Date.parse(duplicate.expires_at) > now) {
          throw new AppError('conflict', 'a pending invitation for this email already exists in the organization', {
            details: { invitation_id: duplicate.id },
          });
        }
        // Past its expiry but not yet swept: expire it now (its own batch), making way for the new one.
        await this.commitWithMailCancelled(duplicate.outbox_entry_id, (w) => this.expireInto(w, duplicate, nowText));
      }
      const uow = new UnitOfWork(this.storage);

      const settings = await this.settings.resolveSettings(organizationId);
      const pending = await this.store.countLivePending(organizationId, nowText, settings.max_pending_invitations);
      if (pending.count >= settings.max_pending_invitations) {
        // No slot frees on its own before the first pending invitation expires.
        throw rateLimited('max_pending_invitations', settings.max_pending_invitations, Date.parse(pending.firstExpiry!) - now);
      }
      const id = newId();
      await this.consumeSendSlots(uow, { organization_id: organizationId, id, email }, settings.max_invitations_per_hour, now);

      const token = this.tokens.issue();
      const invitation: Invitation = {
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
      const mail = await this.queueMail(uow, invitation, token.raw);
      invitation.outbox_entry_id = mail;
      await uow.put(this.store.invitations, invitation);
      await this.events.append(uow, {
        kind: 'invitation.created',
        organization_id: organizationId,
        payload: { invitation_id: id, email, role },
      });
      await uow.commit();
      this.log.info({ invitation_id: id, organization_id: organizationId, role }, 'invitation created');
      return viewInvitation(invitation);
    });
  }

  /**
   * Checks both sliding hours of a mail (creates and resends): the organization's and the
   * recipient's, across organizations. Records the send in both logs in `uow`; 429 when either is full.
   * Callers hold lockForSend.
   */
  private async consumeSendSlots(
    uow: UnitOfWork,
    invitation: Pick<Invitation, 'organization_id' | 'id' | 'email'>,
    organizationMax: number,
    now: number,
  ): Promise<void> {
    const fields = { organization_id: invitation.organization_id, invitation_id: invitation.id };
    const orgWait = await this.store.sends.tryConsume(uow, invitation.organization_id, organizationMax, now, fields);
    if (orgWait !== null) throw rateLimited('max_invitations_per_hour', organizationMax, orgWait);
    const max = this.config.perRecipientPerHour;
    const recipientWait = await this.store.recipientSends.tryConsume(uow, invitation.email, max, now, fields);
    if (recipientWait !== null) throw rateLimited('invitations_per_recipient_per_hour', max, recipientWait);
  }

  /** Queues the invitation mail in `uow`; returns the outbox entry id. */
  private async queueMail(uow: UnitOfWork, invitation: Invitation, rawToken: string): Promise<string> {
    const settings = await this.settings.resolveSettings(invitation.organization_id);
    const entry = await this.outbox.enqueueInvitationMail(uow, {
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
    return this.lock(found.organization_id, async () => {
      const invitation = (await this.store.invitations.get(id))!;
      const status = effectiveStatus(invitation);
      if (status !== 'pending') {
        throw new AppError('invalid_state', `only a pending invitation can be revoked (this one is ${status})`, {
          details: { status },
        });
      }
      const now = nowIso();
      const next: Invitation = {
        ...invitation,
        status: 'revoked',
        revoked_at: now,
        revoked_by: isOperator(actor) ? null : actor.principalId,
        updated_at: now,
      };
      await this.commitWithMailCancelled(invitation.outbox_entry_id, async (uow) => {
        await uow.put(this.store.invitations, next);
        await this.events.append(uow, {
          kind: 'invitation.revoked',
          organization_id: next.organization_id,
          payload: { invitation_id: next.id, email: next.email, role: next.role },
        });
      });
      return viewInvitation(next);
    });
  }

  /**
   * A new token and a new mail for a pending invitation: the old link dies, the lifetime starts
   * again (the mail promises it), and the send counts against the hourly limit.
   */
  async resendInvitation(actor: Actor, id: string): Promise<InvitationView> {
    const found = await this.authorizedInvitation(actor, 'invitation.revoke', id);
    return this.lockForSend(found.organization_id, found.email, async () => {
      const invitation = (await this.store.invitations.get(id))!;
      const now = Date.now();
      if (invitation.status !== 'pending' || Date.parse(invitation.expires_at) <= now) {
        const status = invitation.status === 'pending' ? 'expired' : invitation.status;
        throw new AppError('invalid_state', `only a pending invitation can be re-sent (this one is ${status})`, {
          details: { status },
        });
      }
      const settings = await this.settings.resolveSettings(invitation.organization_id);
      const nowText = new Date(now).toISOString();
      let next!: Invitation;
      await this.commitWithMailCancelled(invitation.outbox_entry_id, async (uow) => {
        await this.consumeSendSlots(uow, invitation, settings.max_invitations_per_hour, now);
        const token = this.tokens.issue();
        next = {
          ...invitation,
          token_hash: token.hash,
          expires_at: new Date(now + this.config.ttlMs).toISOString(),
          send_count: invitation.send_count + 1,
          updated_at: nowText,
        };
        next.outbox_entry_id = await this.queueMail(uow, next, token.raw);
        await uow.put(this.store.invitations, next);
      });
      this.log.info({ invitation_id: id, organization_id: next.organization_id }, 'invitation re-sent');
      return viewInvitation(next);
    });
  }

  /** Builds and commits one batch that also cancels the invitation's unsent mail (under its lock). */
  private async commitWithMailCancelled(outboxEntryId: string | null, build: (uow: UnitOfWork) => Promise<void>): Promise<void> {
    const run = async () => {
      const uow = new UnitOfWork(this.storage);
      await this.outbox.cancelOutboxEntry(uow, outboxEntryId);
      await build(uow);
      await uow.commit();
    };
    await (outboxEntryId === null ? run() : this.outbox.lockOutboxEntry(outboxEntryId, run));
  }

  // -- accept ----------------------------------------------------------------------------------

  /**
   * Accept by link (public). The token is checked before anything about the invitation is told, so
   * unknown ids and wrong tokens look alike (invalid_token). The membership goes to the caller when
   * the request carries credentials, else to the principal of the invited email (created if absent).
   */
  async acceptInvitation(caller: Caller | null, id: string, token: string | undefined): Promise<AcceptResult> {
    const invalid = () => new AppError('invalid_token', 'the invitation link is not valid');
    if (!uuid.safeParse(id).success) throw invalid();
    const found = await this.store.invitations.get(id);
    if (found === undefined || !this.tokens.matches(token, found.token_hash)) throw invalid();
    if (caller?.apiKey !== undefined && caller.apiKey.organizationId !== found.organization_id) {
      throw new AppError('forbidden', 'an API key acts only inside its own organization; accept without it or as a user');
    }
    const organizationId = found.organization_id;
    const locks = [`invitations:${organizationId}`, `org-members:${organizationId}`];
    // An anonymous accept may create the invited email's principal, in the acceptance batch itself.
    if (caller === null) locks.push(principalEmailLock(found.email));
    return this.storage.locks.runAll(locks, async () => {
      const invitation = (await this.store.invitations.get(id))!;
      if (!this.tokens.matches(token, invitation.token_hash)) throw invalid();
      if (invitation.status === 'accepted') throw new AppError('already_accepted', 'this invitation has already been accepted');
      if (invitation.status === 'revoked') throw new AppError('revoked', 'this invitation has been revoked');
      if (invitation.status === 'expired' || Date.parse(invitation.expires_at) <= Date.now()) {
        throw new AppError('expired', 'this invitation has expired; ask for a new one');
      }
      let result!: AcceptResult;
      await this.commitWithMailCancelled(invitation.outbox_entry_id, async (uow) => {
        // One batch: the invited email's principal (when new), the membership, the invitation, the
        // event and the cancelled mail. writeMembership sees the principal queued here (uow.get).
        const principalId = caller?.principalId ?? (await this.principals.ensurePrincipalByEmail(invitation.email, uow)).id;
        const membership = await this.memberships.writeMembership(uow, organizationId, principalId, invitation.role);
        const now = nowIso();
        await uow.put(this.store.invitations, {
          ...invitation,
          status: 'accepted',
          accepted_at: now,
          accepted_by: principalId,
          membership_id: membership.id,
          updated_at: now,
        });
        await this.events.append(uow, {
          kind: 'invitation.accepted',
          organization_id: organizationId,
          payload: {
            invitation_id: id,
            email: invitation.email,
            role: invitation.role,
            membership_id: membership.id,
            principal_id: principalId,
          },
        });
        result = { status: 'accepted', invitation_id: id, organization_id: organizationId, membership_id: membership.id };
      });
      this.log.info({ invitation_id: id, organization_id: organizationId }, 'invitation accepted');
      return result;
    });
  }

  // -- expiry ----------------------------------------------------------------------------------

  /** One sweep batch: overdue pending invitations become expired, each in its own batch under its organization's lock. */
  async expireOverdueInvitations(limit = EXPIRY_BATCH): Promise<{ expired: number; more: boolean }> {
    const ids = await this.store.overdueIds(nowIso(), limit);
    let expired = 0;
    for (const id of ids) {
      if (await this.expireIfOverdue(id)) expired++;
    }
    if (expired > 0) this.log.info({ expired }, 'invitations expired');
    return { expired, more: ids.length === limit };
  }

  /** Expires the invitation when it is still pending and overdue; whether it did. */
  private async expireIfOverdue(id: string): Promise<boolean> {
    const found = await this.store.invitations.get(id);
    if (found === undefined) return false;
    return this.lock(found.organization_id, async () => {
      const invitation = await this.store.invitations.get(id);
      if (invitation?.status !== 'pending' || Date.parse(invitation.expires_at) > Date.now()) return false;
      await this.commitWithMailCancelled(invitation.outbox_entry_id, (uow) => this.expireInto(uow, invitation, nowIso()));
      return true;
    });
  }

  /** Records the expiry of one organization's overdue invitations (all of them, in batches). */
  private async expireOverdueIn(organizationId: string): Promise<void> {
    for (;;) {
      const ids = await this.store.overdueIdsIn(organizationId, nowIso(), EXPIRY_BATCH);
      for (const id of ids) await this.expireIfOverdue(id);
      if (ids.length < EXPIRY_BATCH) return;
    }
  }

  /** The expiry itself; callers run it through commitWithMailCancelled, which also cancels the mail. */
  private async expireInto(uow: UnitOfWork, invitation: Invitation, now: string): Promise<void> {
    await uow.put(this.store.invitations, { ...invitation, status: 'expired', expired_at: now, updated_at: now });
  }
}
