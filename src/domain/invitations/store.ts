import { Collection } from '../../storage/collection.js';
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
  }

  async findPending(organizationId: string, email: string, tx?: Tx): Promise<Invitation | undefined> {
    return this.invitations.in(tx).findUnique('pending_email', compositeKey(organizationId, email));
  }

  /**
   * Pending invitations of the organization that have not yet expired, counted up to `max`, and
   * when the first of them expires (the latest a slot frees without anyone acting).
   */
  async countLivePending(
    organizationId: string,
    nowIso: string,
    max: number,
    tx?: Tx,
  ): Promise<{ count: number; firstExpiry: string | undefined }> {
    const live = await this.invitations.in(tx).range('org_pending', organizationId, { after: nowIso, limit: max });
    return { count: live.length, firstExpiry: live[0]?.sort };
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
