import type { Logger } from 'pino';
import { setBounded } from '../../bounded-map.js';
import { AppError, notFound, validationFailed } from '../../errors.js';
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

/** Subjects whose principal is known, kept at most (oldest out first). */
const SUBJECT_CACHE_ENTRIES = 10_000;

/** A JWT subject (contract 13): any string of 1 to 255 characters, without control characters. */
export function isSubject(subject: unknown): subject is string {
  // eslint-disable-next-line no-control-regex
  return typeof subject === 'string' && subject.length > 0 && subject.length <= 255 && !/[\u0000-\u001f\u007f]/.test(subject);
}

/** Principals: who a membership, a grant or an API key belongs to; found by id, by email or by subject. */
export class PrincipalService {
  /** Subject -> principal id. A binding never changes once made, so every daemon may keep it. */
  private readonly subjects = new Map<string, string>();

  constructor(
    private readonly storage: Storage,
    private readonly store: IdentityStore,
    private readonly log: Logger,
  ) {}

  /**
   * The principal a JWT `sub` names (contract 13): the one whose `external_id` it is, else the one
   * whose id it is; else one registered for `verifiedEmail` (by an invitation) and not yet bound,
   * which is bound to it now; else a new principal, created just in time (its id is the subject
   * when that is a UUID, as before subjects were kept). Never binds by an email the token does not
   * say is verified: the caller passes `verifiedEmail` only then.
   */
  async resolveSubject(subject: string, verifiedEmail?: string): Promise<string> {
    const known = this.subjects.get(subject);
    if (known !== undefined) return known;
    const asId = idSchema.safeParse(subject).success ? subject.toLowerCase() : undefined;
    const found =
      (await this.store.principals.findUnique('external_id', subject)) ??
      (asId === undefined ? undefined : await this.store.principals.get(asId));
    const principal = found ?? (await this.createForSubject(subject, asId, verifiedEmail));
    return setBounded(this.subjects, subject, principal.id, SUBJECT_CACHE_ENTRIES);
  }

  /** Binds or creates the subject's principal, serialized per subject (and per email); the unique index backs it across daemons. */
  private async createForSubject(
    subject: string,
    asId: string | undefined,
    verifiedEmail: string | undefined,
  ): Promise<Principal> {
    const email = verifiedEmail === undefined ? undefined : normalizeEmail(verifiedEmail);
    const locks = [principalSubjectLock(subject), ...(email === undefined ? [] : [principalEmailLock(email)])];
    let bound = false;
    const principal = await this.storage.transaction({ locks }, async (tx) => {
      const read = tx.read(this.store.principals);
      const again = (await read.findUnique('external_id', subject)) ?? (asId === undefined ? undefined : await read.get(asId));
      if (again !== undefined) return again;
      const registered = email === undefined ? undefined : await read.findUnique('email', email);
      if (registered !== undefined && (registered.external_id ?? null) === null) {
        bound = true;
        return tx.put(this.store.principals, { ...registered, external_id: subject });
      }
      // The verified email goes on the new principal when no other has it, so a later invitation to it finds this one.
      return tx.put(this.store.principals, {
        id: asId ?? newId(),
        email: registered === undefined ? (email ?? null) : null,
        external_id: subject,
        created_at: nowIso(),
      });
    });
    this.log.info(
      { principal_id: principal.id },
      bound ? 'principal bound to its subject by a verified email' : 'principal created for a new subject',
    );
    return principal;
  }

  /**
   * The operator binds the principal registered for `email` to `subject` by hand (`switchyard
   * principal link`): for a provider whose tokens carry no verified email.
   */
  async linkSubject(actor: Actor, email: string, subject: string): Promise<Principal> {
    if (!isOperator(actor)) throw new AppError('forbidden', 'only the operator links principals to subjects');
    if (!isSubject(subject))
      throw validationFailed({ subject: 'invalid' }, 'subject must be 1 to 255 characters, without control characters');
    const normalized = normalizeEmail(email);
    const linked = await this.storage.transaction(
      { locks: [principalSubjectLock(subject), principalEmailLock(normalized)] },
      async (tx) => {
        const read = tx.read(this.store.principals);
        const principal = await read.findUnique('email', normalized);
        if (principal === undefined) throw notFound('principal');
        if ((principal.external_id ?? null) === subject) return principal;
        if ((principal.external_id ?? null) !== null)
          throw new AppError('conflict', `this principal is already bound to another subject`);
        const holder = await read.findUnique('external_id', subject);
        if (holder !== undefined) throw new AppError('conflict', `subject already names principal ${holder.id}`);
        return tx.put(this.store.principals, { ...principal, external_id: subject });
      },
    );
    this.log.info({ principal_id: linked.id }, 'principal linked to a subject by the operator');
    return linked;
  }

  /**
   * The principal for an email, created when absent. With `tx`, in that transaction, whose locks
   * include principalEmailLock(email); without, in its own.
   */
  async ensurePrincipalByEmail(email: string, tx?: Tx): Promise<Principal> {
    const normalized = normalizeEmail(email);
    const ensure = async (w: Tx): Promise<Principal> => {
      const existing = await w.read(this.store.principals).findUnique('email', normalized);
      if (existing) return existing;
      return w.put(this.store.principals, { id: newId(), email: normalized, external_id: null, created_at: nowIso() });
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
      await tx.put(this.store.principals, { id, email: null, external_id: null, created_at: nowIso() });
  }
}

/** The lock that serializes creating or binding the principal of one identity-provider subject. */
export function principalSubjectLock(subject: string): string {
  return `principal-subject:${subject}`;
}

/** The lock that serializes creating the principal of one email address. */
export function principalEmailLock(email: string): string {
  return `principal-email:${normalizeEmail(email)}`;
}
