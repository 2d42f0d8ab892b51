import { randomUUID } from 'node:crypto';
import { honourRetryAfter } from '../../backoff.js';
import { AppError, notFound } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Page, PageOptions } from '../../storage/collection.js';
import { newId, nowIso } from '../../storage/keys.js';
import { leasesTakenOver, type Storage, type Tx } from '../../storage/port.js';
import { isOperator, type Actor } from '../identity/caller.js';
import { scrubErrorText } from '../../redact.js';
import { organizationRef, type PermissionEngine } from '../identity/permissions.js';
import { formatMailbox, headerText, type Mailbox } from './address.js';
import { acceptLink, invitationSubject, renderInvitationMail } from './render.js';
import type { SecretSealer } from '../secret-sealer.js';
import { OutboxStore } from './store.js';
import {
  outboxStatuses,
  type EmailAttempt,
  type EmailTransport,
  type InvitationMailData,
  type OutboxEntry,
  type OutboxEntryView,
  type OutboxStatus,
  type OutgoingMail,
  type SendResult,
} from './types.js';

export interface OutboxSettings {
  /** The delay before each retry (SERVICE_OUTBOX_RETRY_DELAYS_MS); its length is the retry budget. */
  retryDelaysMs: number[];
  /** How long a claim holds an entry; longer than any send can take (see docs/invitations.md). */
  leaseMs: number;
  /** SERVICE_EMAIL_FROM, parsed: its address is the sender; its name is used without email_from_name. */
  from: Mailbox;
  /** SERVICE_PUBLIC_URL, or the bound HTTP URL: the base of accept links. */
  publicUrl: () => string;
}

export interface EnqueueInvitationMail {
  organizationId: string;
  to: string;
  data: InvitationMailData;
  rawToken: string;
}

export interface ListOutboxOptions extends PageOptions {
  organization_id?: string;
  status?: OutboxStatus;
}

/** Entries claimed per poll; they are sent concurrently. */
const CLAIM_BATCH = 10;
/** A provider's Retry-After lengthens the scheduled wait, up to this much. */
const MAX_RETRY_AFTER_MS = 3_600_000;

const INTERRUPTED = 'interrupted: the daemon stopped during this send';
/** The storage topic that wakes every daemon's poller (mail was queued or retried). */
const OUTBOX_TOPIC = 'outbox';

/** The lock every read-modify-write of one outbox entry holds (claims, sends, retries, cancels). */
export function outboxEntryLock(id: string): string {
  return `outbox:${id}`;
}

/**
 * The email outbox. Entries are queued inside the caller's transaction (with the invitation),
 * claimed with a lease by the poller (sendDueMail), sent through the configured transport and
 * retried on the configured schedule. Without a transport (development) they are `held`. Every
 * operation takes an Actor, so the operator (gRPC/CLI) can list and retry.
 */
export class OutboxService {
  /**
   * Identifies this daemon's leases. Another instance's lease is taken over once it has expired, or
   * at once when the storage is exclusive (LevelDB): that instance was a previous run that stopped.
   */
  readonly instanceId = randomUUID();
  private readonly store: OutboxStore;
  private wakeListener: (() => void) | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly permissions: PermissionEngine,
    private readonly sealer: SecretSealer,
    private readonly transport: EmailTransport | undefined,
    private readonly settings: OutboxSettings,
    private readonly log: Logger,
  ) {
    this.store = new OutboxStore(storage);
  }

  /** How mail goes out: the transport's name (`provider`, `smtp`), or `held` when there is none. */
  get transportName(): string {
    return this.transport?.name ?? 'held';
  }

  async countOutboxEntries(): Promise<number> {
    return this.store.entries.count();
  }

  /** Entries by status, and the age in seconds of the oldest entry that is due (metrics). */
  async outboxFigures(): Promise<{ byStatus: Record<string, number>; oldestDueAgeSeconds: number }> {
    const byStatus: Record<string, number> = {};
    for (const status of outboxStatuses) byStatus[status] = await this.store.entries.countBy('status', status);
    const [oldest] = await this.store.dueIds(nowIso(), 1);
    const entry = oldest === undefined ? undefined : await this.store.entries.get(oldest);
    const dueSince = entry === undefined ? undefined : Date.parse(entry.next_attempt_at ?? entry.created_at);
    return { byStatus, oldestDueAgeSeconds: dueSince === undefined ? 0 : Math.max(0, (Date.now() - dueSince) / 1000) };
  }

  /** Closes the transport (at shutdown, after the outbox loop stopped); mail still queued stays queued. */
  async close(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.transport?.close();
  }

  /**
   * The poller registers here, once: it is called when this daemon has queued or retried mail, and
   * when any daemon sharing the storage has (the storage's wake-ups).
   */
  onWake(listener: () => void): void {
    this.unsubscribe?.();
    this.wakeListener = listener;
    this.unsubscribe = this.storage.onWake(OUTBOX_TOPIC, listener);
  }

  /** Asks this daemon's poller to run now. */
  wake(): void {
    this.wakeListener?.();
  }

  /** Once `tx` commits, wakes this daemon's poller and every other daemon's. */
  private wakeAfter(tx: Tx): void {
    tx.wake(OUTBOX_TOPIC);
    tx.afterCommit(() => this.wake());
  }

  // -- queueing (inside the caller's transaction) ------------------------------------------------

  /** Adds an invitation mail to `tx`: pending (sent promptly) or held when no transport is configured. */
  enqueueInvitationMail(tx: Tx, input: EnqueueInvitationMail): OutboxEntry {
    const id = newId();
    const now = nowIso();
    const held = this.transport === undefined;
    const entry: OutboxEntry = {
      id,
      organization_id: input.organizationId,
      kind: 'invitation',
      to: input.to,
      data: input.data,
      token_sealed: this.sealer.seal(input.rawToken, id),
      status: held ? 'held' : 'pending',
      attempts: [],
      retry_base: 0,
      next_attempt_at: held ? null : now,
      lease_owner: null,
      lease_until: null,
      provider_message_id: null,
      last_error: null,
      created_at: now,
      updated_at: now,
      sent_at: null,
    };
    // A new random id: no earlier version to read.
    tx.insert(this.store.entries, entry);
    if (!held) this.wakeAfter(tx);
    return entry;
  }

  /**
   * The mail's link is dead (invitation accepted, revoked, expired or re-sent): unsent entries end
   * `cancelled` and the sealed token is wiped. A send in flight finishes; if it fails it is not retried.
   * `tx` holds outboxEntryLock(id).
   */
  async cancelOutboxEntry(tx: Tx, id: string | null): Promise<void> {
    if (id === null) return;
    const entry = await tx.get(this.store.entries, id);
    if (entry === undefined || entry.status === 'sent' || entry.status === 'cancelled') return;
    const status: OutboxStatus = entry.status === 'pending' || entry.status === 'held' ? 'cancelled' : entry.status;
    await tx.put(this.store.entries, {
      ...entry,
      status,
      token_sealed: null,
      next_attempt_at: status === 'cancelled' ? null : entry.next_attempt_at,
      updated_at: nowIso(),
    });
  }

  // -- operator and admin surface ----------------------------------------------------------------

  async getOutboxEntry(actor: Actor, id: string): Promise<OutboxEntryView> {
    const entry = await this.store.entries.get(id);
    if (entry === undefined) throw notFound('outbox entry');
    await this.permissions.authorize(actor, 'invitation.read', organizationRef(entry.organization_id));
    return this.view(entry);
  }

  /** Newest first. The operator sees every organization; others need organization_id (admin). */
  async listOutbox(actor: Actor, options: ListOutboxOptions = {}): Promise<Page<OutboxEntryView>> {
    if (options.organization_id === undefined && !isOperator(actor)) {
      throw new AppError('invalid_request', 'organization_id is required', {
        details: { fields: { organization_id: 'required' } },
      });
    }
    if (options.organization_id !== undefined)
      await this.permissions.authorize(actor, 'invitation.read', organizationRef(options.organization_id));
    const page = { limit: options.limit, cursor: options.cursor, reverse: options.reverse ?? true };
    const { organization_id: organizationId, status } = options;
    const entries = this.store.entries;
    let result: Page<OutboxEntry>;
    if (organizationId !== undefined)
      result =
        status === undefined
          ? await entries.listBy('organization', organizationId, page)
          : await entries.listBy('organization_status', [organizationId, status], page);
    else if (status !== undefined) result = await entries.listBy('status', status, page);
    else result = await entries.listBy('created', '-', page);
    return { items: result.items.map((e) => this.view(e)), nextCursor: result.nextCursor };
  }

  /** A failed (or held, once a transport is configured) entry goes back to pending with a fresh retry budget. */
  async retryOutboxEntry(actor: Actor, id: string): Promise<OutboxEntryView> {
    const found = await this.store.entries.get(id);
    if (found === undefined) throw notFound('outbox entry');
    await this.permissions.authorize(actor, 'invitation.revoke', organizationRef(found.organization_id));
    const entry = await this.storage.transaction({ locks: [outboxEntryLock(id)] }, async (tx) => {
      const current = (await tx.get(this.store.entries, id))!;
      if (current.status !== 'failed' && current.status !== 'held') {
        throw new AppError('invalid_state', `only failed or held mail can be retried (this one is ${current.status})`, {
          details: { status: current.status },
        });
      }
      if (this.transport === undefined)
        throw new AppError('invalid_state', 'no email transport is configured (set EMAIL_PROVIDER_API_KEY or SERVICE_SMTP_URL)');
      if (current.token_sealed === null) throw new AppError('invalid_state', 'the invitation of this mail is no longer pending');
      const now = nowIso();
      const next: OutboxEntry = {
        ...current,
        status: 'pending',
        retry_base: current.attempts.length,
        next_attempt_at: now,
        last_error: null,
        updated_at: now,
      };
      this.wakeAfter(tx);
      return tx.put(this.store.entries, next);
    });
    return this.view(entry);
  }

  // -- the poller ------------------------------------------------------------------------------

  /**
   * One poll: claims due entries (and entries whose send outlived its lease), sends them, records
   * each attempt. Returns when the next pending entry is due (epoch ms), so the poller can wake then.
   */
  async sendDueMail(): Promise<number | undefined> {
    if (this.transport === undefined) return undefined;
    const now = Date.now();
    const nowText = new Date(now).toISOString();
    const claimed = await this.claimEntries('pending', nowText, CLAIM_BATCH, CLAIM_BATCH, now);
    if (claimed.length < CLAIM_BATCH) {
      // Exclusive storage: a lease of another instance is a previous run's, taken over at once. Else
      // only expired leases are candidates (the holder may still be sending). This instance's own
      // unexpired leases may sit among the candidates, hence more of them than it claims.
      const upTo = leasesTakenOver(this.storage, now);
      const room = CLAIM_BATCH - claimed.length;
      for (const entry of await this.claimEntries('sending', upTo, room * 2, room, now)) {
        this.log.warn({ outbox_id: entry.id }, 'reclaiming mail whose send was interrupted');
        claimed.push(entry);
      }
    }
    await Promise.all(claimed.map((e) => this.deliver(e)));
    return claimed.length === CLAIM_BATCH ? Date.now() : this.store.nextDueAt();
  }

  /** Claims up to `room` of the first `candidates` entries under `status` in the queue, sorted up to `upTo`. */
  private async claimEntries(
    status: 'pending' | 'sending',
    upTo: string | undefined,
    candidates: number,
    room: number,
    now: number,
  ): Promise<OutboxEntry[]> {
    let left = room;
    return this.storage.background.claim(this.store.entries, {
      candidates: { index: 'queue', value: status, upTo },
      limit: candidates,
      lockOf: outboxEntryLock,
      take: (entry) => {
        if (left === 0 || !this.claimable(entry, now)) return undefined;
        left--;
        return this.leased(entry, now);
      },
    });
  }

  private claimable(entry: OutboxEntry, now: number): boolean {
    if (entry.status === 'pending') return entry.next_attempt_at !== null && Date.parse(entry.next_attempt_at) <= now;
    if (entry.status === 'sending')
      return (
        entry.lease_until === null ||
        Date.parse(entry.lease_until) <= now ||
        (this.storage.exclusive && entry.lease_owner !== this.instanceId)
      );
    return false;
  }

  /** The entry leased to this instance for one send. */
  private leased(entry: OutboxEntry, now: number): OutboxEntry {
    const attempts = [...entry.attempts];
    if (entry.status === 'sending') {
      // A lease that outlived its send: that send may or may not have reached the provider. It is
      // recorded and the mail sent again (same Idempotency-Key), so a crash re-sends, never loses.
      const started = entry.updated_at;
      attempts.push({
        at: started,
        duration_ms: Math.max(0, now - Date.parse(started)),
        error: INTERRUPTED,
        status_code: null,
        interrupted: true,
      });
    }
    return {
      ...entry,
      status: 'sending',
      attempts,
      lease_owner: this.instanceId,
      lease_until: new Date(now + this.settings.leaseMs).toISOString(),
      updated_at: new Date(now).toISOString(),
    };
  }

  private async deliver(entry: OutboxEntry): Promise<void> {
    const started = Date.now();
    let result: SendResult;
    const raw = entry.token_sealed === null ? undefined : this.sealer.unseal(entry.token_sealed, entry.id);
    if (raw === undefined) result = { ok: false, error: 'the accept token of this mail is unavailable', statusCode: null };
    else {
      try {
        result = await this.transport!.send(this.compose(entry, raw));
      } catch (err) {
        result = { ok: false, error: err instanceof Error ? err.message : String(err), statusCode: null };
      }
      // The provider's text may quote the request (the link, its token): scrubbed before it is logged or stored.
      if (!result.ok) result = { ...result, error: scrubErrorText(result.error.replaceAll(raw, '[redacted]')) };
    }
    const attempt: EmailAttempt = {
      at: new Date(started).toISOString(),
      duration_ms: Date.now() - started,
      error: result.ok ? null : result.error,
      status_code: result.statusCode,
    };
    const next = await this.storage.background.transaction({ locks: [outboxEntryLock(entry.id)] }, async (tx) => {
      const current = await tx.get(this.store.entries, entry.id);
      if (current?.status !== 'sending' || current.lease_owner !== this.instanceId) return undefined;
      return tx.put(this.store.entries, this.afterAttempt(current, attempt, result, raw !== undefined));
    });
    if (next === undefined) this.log.warn({ outbox_id: entry.id }, 'mail lease lost before the send was recorded');
    else if (next.status === 'sent')
      this.log.info({ outbox_id: next.id, transport: this.transport!.name, attempts: next.attempts.length }, 'mail sent');
    else
      this.log.warn(
        { outbox_id: next.id, status: next.status, error: attempt.error, next_attempt_at: next.next_attempt_at },
        'mail send failed',
      );
  }

  /** The retry schedule: one send, then a retry after each configured delay, then `failed`. */
  private afterAttempt(current: OutboxEntry, attempt: EmailAttempt, result: SendResult, retryable: boolean): OutboxEntry {
    const now = Date.now();
    const attempts = [...current.attempts, attempt];
    const base = { ...current, attempts, lease_owner: null, lease_until: null, updated_at: new Date(now).toISOString() };
    if (result.ok) {
      return {
        ...base,
        status: 'sent',
        provider_message_id: result.providerMessageId,
        sent_at: attempt.at,
        last_error: null,
        next_attempt_at: null,
        token_sealed: null,
      };
    }
    if (current.token_sealed === null) return { ...base, status: 'cancelled', last_error: result.error, next_attempt_at: null };
    const failures = attempts.slice(current.retry_base).filter((a) => a.error !== null && a.interrupted !== true).length;
    const delays = this.settings.retryDelaysMs;
    if (!retryable || failures > delays.length)
      return { ...base, status: 'failed', last_error: result.error, next_attempt_at: null };
    const wait = honourRetryAfter(delays[failures - 1], result.retryAfterMs, MAX_RETRY_AFTER_MS);
    return { ...base, status: 'pending', last_error: result.error, next_attempt_at: new Date(now + wait).toISOString() };
  }

  // -- rendering -------------------------------------------------------------------------------

  private sender(entry: OutboxEntry): Mailbox {
    return { name: headerText(entry.data.from_name ?? this.settings.from.name), address: this.settings.from.address };
  }

  private compose(entry: OutboxEntry, rawToken: string): OutgoingMail {
    const rendered = renderInvitationMail(entry.data, acceptLink(this.settings.publicUrl(), entry.data.invitation_id, rawToken));
    return {
      id: entry.id,
      from: this.sender(entry),
      to: entry.to,
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
    };
  }

  private view(entry: OutboxEntry): OutboxEntryView {
    const { token_sealed, lease_owner: _owner, data, ...rest } = entry;
    let accept_url: string | null = null;
    if (entry.status === 'held' && token_sealed !== null) {
      const raw = this.sealer.unseal(token_sealed, entry.id);
      if (raw !== undefined) accept_url = acceptLink(this.settings.publicUrl(), data.invitation_id, raw);
    }
    return {
      ...rest,
      invitation_id: data.invitation_id,
      from: formatMailbox(this.sender(entry)),
      subject: invitationSubject(data),
      accept_url,
    };
  }
}
