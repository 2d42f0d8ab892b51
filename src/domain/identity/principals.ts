import { AppError, notFound } from '../../errors.js';
import { newId, nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import { idSchema, normalizeEmail } from '../schemas.js';
import { isOperator, type Actor } from './caller.js';
import type { Role } from './roles.js';
import type { IdentityStore } from './store.js';
import type { Organization, Principal, Team } from './types.js';

/** One organization a principal belongs to: its organization-level role, and its roles on teams. */
export interface PrincipalOrganization {
  organization_id: string;
  slug: string;
  display_name: string;
  role: Role | null;
  membership_id: string | null;
  teams: { team_id: string; team_name: string; role: Role; membership_id: string }[];
}

export interface PrincipalDetails {
  principal: Principal;
  organizations: PrincipalOrganization[];
}

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
      const existing = await w.read(this.store.principals).findUnique('email', normalized);
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

  /** A principal named by id or by email (the operator's view); not_found when none is registered. */
  async findPrincipal(actor: Actor, ref: string): Promise<Principal> {
    if (!isOperator(actor)) throw new AppError('forbidden', 'only the operator looks principals up');
    const text = ref.trim();
    const principal = text.includes('@')
      ? await this.findPrincipalByEmail(text)
      : idSchema.safeParse(text).success
        ? await this.getPrincipal(text.toLowerCase())
        : undefined;
    if (principal === undefined) throw notFound('principal');
    return principal;
  }

  /** The principal with every organization it belongs to and its roles there (organizations by slug). */
  async describePrincipal(actor: Actor, ref: string): Promise<PrincipalDetails> {
    const principal = await this.findPrincipal(actor, ref);
    const { memberships, organizations, teams } = this.store;
    const held = await memberships.allBy('principal', principal.id);
    const orgs = await organizations.getMany([...new Set(held.map((m) => m.organization_id))]);
    const teamIds = held.flatMap((m) => (m.team_id === null ? [] : [m.team_id]));
    const teamById = new Map((await teams.getMany(teamIds)).filter((t): t is Team => t !== undefined).map((t) => [t.id, t]));
    const described = orgs
      .filter((o): o is Organization => o !== undefined)
      .map((org): PrincipalOrganization => {
        const here = held.filter((m) => m.organization_id === org.id);
        const whole = here.find((m) => m.team_id === null);
        return {
          organization_id: org.id,
          slug: org.slug,
          display_name: org.display_name,
          role: whole?.role ?? null,
          membership_id: whole?.id ?? null,
          teams: here
            .filter((m) => m.team_id !== null)
            .map((m) => ({
              team_id: m.team_id!,
              team_name: teamById.get(m.team_id!)?.name ?? '',
              role: m.role,
              membership_id: m.id,
            }))
            .sort((a, b) => a.team_name.localeCompare(b.team_name)),
        };
      })
      .sort((a, b) => a.slug.localeCompare(b.slug));
    return { principal, organizations: described };
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
