import { newId, nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import { normalizeEmail } from '../schemas.js';
import type { IdentityStore } from './store.js';
import type { Principal } from './types.js';

/** Principals: who a membership, a grant or an API key belongs to; found by id or by email. */
export class PrincipalService {
  constructor(
    private readonly storage: Storage,
    private readonly store: IdentityStore,
  ) {}

  /**
   * The principal for an email, created when absent. With `tx`, in that transaction, whose locks
   * include principalEmailLock(email); without, in its own.
   */
  async ensurePrincipalByEmail(email: string, tx?: Tx): Promise<Principal> {
    const normalized = normalizeEmail(email);
    const ensure = async (w: Tx): Promise<Principal> => {
      const existing = await this.store.principals.findUnique('email', normalized);
      if (existing) return existing;
      return w.put(this.store.principals, { id: newId(), email: normalized, created_at: nowIso() });
    };
    if (tx !== undefined) return ensure(tx);
    const existing = await this.store.principals.findUnique('email', normalized);
    if (existing) return existing;
    return this.storage.transaction({ locks: [principalEmailLock(normalized)] }, ensure);
  }

  async findPrincipalByEmail(email: string): Promise<Principal | undefined> {
    return this.store.principals.findUnique('email', normalizeEmail(email));
  }

  async getPrincipal(id: string): Promise<Principal | undefined> {
    return this.store.principals.get(id);
  }

  /** Sees principals written earlier in `tx` too, so one created by email in the same transaction keeps its email. */
  async ensurePrincipalRecord(tx: Tx, id: string): Promise<void> {
    if ((await tx.get(this.store.principals, id)) === undefined)
      await tx.put(this.store.principals, { id, email: null, created_at: nowIso() });
  }
}

/** The lock that serializes creating the principal of one email address. */
export function principalEmailLock(email: string): string {
  return `principal-email:${normalizeEmail(email)}`;
}
