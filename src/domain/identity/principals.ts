import type { Storage } from '../../storage/db.js';
import { newId, nowIso } from '../../storage/keys.js';
import { UnitOfWork } from '../../storage/unit-of-work.js';
import { normalizeEmail } from '../schemas.js';
import type { IdentityStore } from './store.js';
import type { Principal } from './types.js';

/** Principals: who a membership, a grant or an API key belongs to; found by id or by email. */
export class PrincipalService {
  constructor(
    private readonly storage: Storage,
    private readonly store: IdentityStore,
  ) {}

  /** The principal for an email, created when absent. With `uow`, the caller holds `principal-email:<email>`. */
  async ensurePrincipalByEmail(email: string, uow?: UnitOfWork): Promise<Principal> {
    const normalized = normalizeEmail(email);
    const existing = await this.store.principals.findUnique('email', normalized);
    if (existing) return existing;
    const principal: Principal = { id: newId(), email: normalized, created_at: nowIso() };
    if (uow) {
      await uow.put(this.store.principals, principal);
      return principal;
    }
    return this.storage.locks.run(principalEmailLock(normalized), async () => {
      const again = await this.store.principals.findUnique('email', normalized);
      if (again) return again;
      const w = new UnitOfWork(this.storage);
      await w.put(this.store.principals, principal);
      await w.commit();
      return principal;
    });
  }

  async findPrincipalByEmail(email: string): Promise<Principal | undefined> {
    return this.store.principals.findUnique('email', normalizeEmail(email));
  }

  async getPrincipal(id: string): Promise<Principal | undefined> {
    return this.store.principals.get(id);
  }

  /** Sees principals queued in `uow` too, so one created by email in the same batch keeps its email. */
  async ensurePrincipalRecord(uow: UnitOfWork, id: string): Promise<void> {
    if ((await uow.get(this.store.principals, id)) === undefined)
      await uow.put(this.store.principals, { id, email: null, created_at: nowIso() });
  }
}

/** The lock that serializes creating the principal of one email address. */
export function principalEmailLock(email: string): string {
  return `principal-email:${normalizeEmail(email)}`;
}
