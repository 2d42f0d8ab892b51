import { Collection } from '../../storage/collection.js';
import { Counters } from '../../storage/counters.js';
import { HourlyLog } from '../../storage/hourly-log.js';
import { compositeKey } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import type { Invitation, InvitationSend, InvitationStatus, RecipientSend } from './types.js';

/**
 * Invitations, their indexes, and two sliding-hour send logs: per organization and per recipient
 * address (all organizations together). Limit checks read keys only, bounded by the limit itself.
 */
export class InvitationStore {
  readonly invitations: Collection<Invitation>;
  readonly sends: HourlyLog<InvitationSend>;
  readonly recipientSends: HourlyLog<RecipientSend>;
  /** Each organization's pending invitations (stored status), kept by putInvitation. */
  private readonly pendingCounts: Counters;

  constructor(storage: Storage) {
    const pending = (i: Invitation) => i.status === 'pending';
    this.invitations = new Collection<Invitation>(storage, 'invitations', (i) => i.id, [
      { name: 'organization', value: (i) => i.organization_id, sort: (i) => i.created_at },
      { name: 'org_status', value: (i) => statusKey(i.organization_id, i.status), sort: (i) => i.created_at },
      { name: 'org_pending', value: (i) => (pending(i) ? i.organization_id : undefined), sort: (i) => i.expires_at },
      { name: 'pending_email', value: (i) => (pending(i) ? compositeKey(i.organization_id, i.email) : undefined), unique: true },
      { name: 'expiry', value: (i) => (pending(i) ? 'pending' : undefined), sort: (i) => i.expires_at },
    ]);
    this.sends = new HourlyLog<InvitationSend>(storage, 'invitation_sends');
    this.recipientSends = new HourlyLog<RecipientSend>(storage, 'invitation_recipient_sends');
    this.pendingCounts = new Counters(storage, 'invitations_pending');
  }

  /**
   * Reads in `tx`, in one round trip, the counts a create checks: the organization's pending
   * invitations and sends in the hour, the address's sends in the hour. Later reads of them in `tx`
   * (the checks, the writes) use what this read.
   */
  async readCounts(tx: Tx, organizationId: string, email: string): Promise<void> {
    await tx.getMany(this.pendingCounts.records, [
      this.pendingCounts.idOf(organizationId),
      this.sends.countIdOf(organizationId),
      this.recipientSends.countIdOf(email),
    ]);
  }

  /** Queues the invitation in `tx` with its organization's pending count (`previous`: as read in `tx`). */
  async putInvitation(tx: Tx, next: Invitation, previous: Invitation | undefined): Promise<Invitation> {
    const delta = Number(next.status === 'pending') - Number(previous?.status === 'pending');
    await this.pendingCounts.add(tx, next.organization_id, delta, () => this.recountPending(next.organization_id, tx));
    return tx.put(this.invitations, next);
  }

  /**
   * Whether the organization has `max` pending invitations that have not yet expired: how long until
   * the first of them expires (ms, the latest a slot frees without anyone acting), or undefined when
   * there is room. Reads the kept count, and past it only the overdue ones the sweep has not reached.
   */
  async pendingLimitWait(tx: Tx, organizationId: string, now: number, max: number): Promise<number | undefined> {
    const stored = await this.pendingCounts.read(tx, organizationId, () => this.recountPending(organizationId, tx));
    if (stored < max) return undefined;
    const invitations = this.invitations.in(tx);
    const nowText = new Date(now).toISOString();
    const overdue = await invitations.countRange('org_pending', organizationId, { upTo: nowText, limit: stored - max + 1 });
    if (stored - overdue < max) return undefined;
    const [first] = await invitations.range('org_pending', organizationId, { after: nowText, limit: 1 });
    return first === undefined ? undefined : Date.parse(first.sort) - now;
  }

  /** The organization's pending invitations counted from their index: data from before counts were kept. */
  private recountPending(organizationId: string, tx: Tx): Promise<number> {
    return this.invitations.in(tx).countBy('org_pending', organizationId);
  }

  async findPending(organizationId: string, email: string, tx?: Tx): Promise<Invitation | undefined> {
    return this.invitations.in(tx).findUnique('pending_email', compositeKey(organizationId, email));
  }

  /** One organization's pending invitations whose expiry has passed, soonest first. */
  async overdueIdsIn(organizationId: string, nowIso: string, limit: number, tx?: Tx): Promise<string[]> {
    const overdue = await this.invitations.in(tx).range('org_pending', organizationId, { upTo: nowIso, limit });
    return overdue.map((e) => e.id);
  }

  /** Pending invitations whose expiry has passed, soonest first. */
  async overdueIds(nowIso: string, limit: number): Promise<string[]> {
    const overdue = await this.invitations.range('expiry', 'pending', { upTo: nowIso, limit });
    return overdue.map((e) => e.id);
  }
}

/** Index values may not hold the key separator; organization ids are UUIDs, so ':' is safe. */
export function statusKey(organizationId: string, status: InvitationStatus): string {
  return `${organizationId}:${status}`;
}
