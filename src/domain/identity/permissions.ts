import { AppError, notFound } from '../../errors.js';
import { outsideTx } from '../../storage/tx-check.js';
import { isOperator, type Actor, type ApiKeyScope, type Caller } from './caller.js';
import { highestRole, roleAtLeast, roles, type Role } from './roles.js';
import { scopeKey, type IdentityStore } from './store.js';

interface ActionSpec {
  /** The lowest role that may perform the action on a resource it applies to. */
  role: Role;
  /** The resource type the action is usually checked against. */
  resource: string;
  /** A scoped API key needs this scope; actions without one need a full-access key. */
  scope?: ApiKeyScope;
  /** On a resource that another principal owns (an API key), the action needs this one instead. */
  others?: 'apikey.manage';
  doc: string;
}

/** The action catalog: the single table every permission decision reads (docs/permissions.md). */
export const actionCatalog = {
  'organization.read': { role: 'viewer', resource: 'organization', doc: 'see the organization' },
  'organization.update': { role: 'admin', resource: 'organization', doc: 'rename the organization' },
  'team.create': { role: 'admin', resource: 'organization', doc: 'create a team' },
  'team.read': { role: 'viewer', resource: 'team', doc: 'see a team' },
  'team.update': { role: 'admin', resource: 'team', doc: 'change a team' },
  'team.delete': { role: 'admin', resource: 'team', doc: 'delete a team, its memberships and the grants on it' },
  'member.read': { role: 'viewer', resource: 'organization', doc: 'list members' },
  'member.create': { role: 'admin', resource: 'organization', doc: 'add a member (owner role: owners only)' },
  'member.update': { role: 'admin', resource: 'organization', doc: "change a member's role (to or from owner: owners only)" },
  'member.delete': { role: 'admin', resource: 'organization', doc: 'remove a member (an owner: owners only)' },
  'grant.create': { role: 'admin', resource: 'organization', doc: 'give one member one action on one resource' },
  'grant.read': { role: 'admin', resource: 'organization', doc: 'list ACL grants' },
  'grant.delete': { role: 'admin', resource: 'organization', doc: 'remove an ACL grant' },
  'invitation.create': { role: 'admin', resource: 'organization', doc: 'invite by email (or an ACL grant)' },
  'invitation.read': { role: 'admin', resource: 'organization', doc: 'list and show invitations' },
  'invitation.revoke': { role: 'admin', resource: 'organization', doc: 'revoke or resend a pending invitation' },
  'settings.read': { role: 'member', resource: 'organization', doc: 'read organization settings' },
  'settings.update': { role: 'owner', resource: 'organization', doc: 'change organization settings' },
  'apikey.create': { role: 'member', resource: 'organization', doc: 'create an API key acting as oneself' },
  'apikey.read': { role: 'member', resource: 'api_key', others: 'apikey.manage', doc: "list and show one's own API keys" },
  'apikey.delete': { role: 'member', resource: 'api_key', others: 'apikey.manage', doc: "revoke one's own API key" },
  'apikey.manage': {
    role: 'admin',
    resource: 'organization',
    others: 'apikey.manage',
    doc: "list and revoke anyone's API keys",
  },
  'portal.create': { role: 'admin', resource: 'organization', doc: 'mint a tenant portal link' },
  'webhook.create': { role: 'admin', resource: 'organization', doc: 'register a webhook' },
  'webhook.read': { role: 'admin', resource: 'organization', doc: 'see webhooks and their deliveries' },
  'webhook.update': { role: 'admin', resource: 'organization', doc: 'change, pause, rotate, redeliver' },
  'webhook.delete': { role: 'admin', resource: 'organization', doc: 'delete a webhook' },
  'event.read': { role: 'admin', resource: 'organization', doc: 'read the domain event log' },
  'audit.read': { role: 'admin', resource: 'organization', doc: 'read the audit log: who changed what' },
  'provider.read': { role: 'viewer', resource: 'organization', doc: 'list providers' },
  'provider.usage': { role: 'admin', resource: 'organization', doc: "read the organization's provider usage and spend" },
  'provider.execute': {
    role: 'member',
    resource: 'organization',
    scope: 'providers:execute',
    doc: 'run, stream and estimate provider work',
  },
  'workflow.read': { role: 'viewer', resource: 'organization', scope: 'workflows:read', doc: 'read workflows, runs and output' },
  'workflow.write': {
    role: 'member',
    resource: 'organization',
    scope: 'workflows:write',
    doc: 'submit and manage workflow runs',
  },
  'job.read': { role: 'viewer', resource: 'organization', scope: 'jobs:read', doc: 'read job status and history' },
  'job.write': { role: 'member', resource: 'organization', scope: 'jobs:write', doc: 'create and manage jobs' },
} as const satisfies Record<string, ActionSpec>;

export type Action = keyof typeof actionCatalog;
const catalog: Record<Action, ActionSpec> = actionCatalog;
export const actions = Object.keys(actionCatalog) as [Action, ...Action[]];

export interface ResourceRef {
  type: string;
  id: string;
}

/** The organization as the resource of a check (most actions are checked against it). */
export function organizationRef(organizationId: string): ResourceRef {
  return { type: 'organization', id: organizationId };
}

export interface ResourceLocation {
  organizationId: string;
  teamId: string | null;
  /** The principal that owns the resource, where ownership changes who may act on it (an API key). */
  ownerPrincipalId?: string;
}

/** The location of an organization-level resource (the organization itself, an invitation). */
export function atOrganization(organizationId: string): ResourceLocation {
  return { organizationId, teamId: null };
}

/** Finds which organization (and team) a resource belongs to; undefined when it does not exist. */
export type ResourceResolver = (id: string) => Promise<ResourceLocation | undefined>;

/**
 * Why a decision says no. `not_visible`: the caller may not know the resource exists (404, exactly as
 * for one that does not). `insufficient_scope`: the API key lacks the action's scope. `role`: the
 * caller's role and grants fall short (403).
 */
export type Denial = 'not_visible' | 'insufficient_scope' | 'role';

export type Decision =
  | { readonly allowed: true; readonly role: Role | null; readonly reason: 'role' | 'grant' | 'operator' | 'portal' }
  | { readonly allowed: false; readonly role: Role | null; readonly reason: string; readonly denial: Denial };

const NOT_VISIBLE: Decision = Object.freeze({ allowed: false, role: null, reason: 'resource not found', denial: 'not_visible' });
const BY_OPERATOR: Decision = Object.freeze({ allowed: true, role: 'owner', reason: 'operator' });

/** The answers of the hot path, one per role, shared (decisions are never changed after the fact). */
const ALLOWED_BY_ROLE = Object.fromEntries(
  roles.map((role) => [role, Object.freeze({ allowed: true, role, reason: 'role' })]),
) as Record<Role, Decision>;

/**
 * What a portal session may do: `read` sees the integration (webhooks and deliveries, usage, runs,
 * jobs); `manage_webhooks` also changes webhooks. Nothing outside its organization is visible.
 */
export const portalActions: Readonly<Record<'read' | 'manage_webhooks', readonly Action[]>> = {
  read: ['organization.read', 'webhook.read', 'provider.read', 'provider.usage', 'workflow.read', 'job.read'],
  manage_webhooks: ['webhook.create', 'webhook.update', 'webhook.delete'],
};
const PORTAL_ALLOWED: Decision = Object.freeze({ allowed: true, role: null, reason: 'portal' });

function decidePortal(portal: NonNullable<Caller['portal']>, action: Action, location: ResourceLocation): Decision {
  if (portal.organizationId !== location.organizationId) return NOT_VISIBLE;
  if (portal.capabilities.some((c) => portalActions[c].includes(action))) return PORTAL_ALLOWED;
  return { allowed: false, role: null, reason: "the portal session's capabilities do not include this", denial: 'role' };
}

/** Another principal's resource is hidden unless the caller may act on it. */
function hideDenied(decision: Decision): Decision {
  return decision.allowed ? decision : NOT_VISIBLE;
}

/** How a resource type reads in an error message: `api_key` -> `api key`. */
function resourceLabel(type: string): string {
  return type.replaceAll('_', ' ');
}

/**
 * The one permission engine. Route guards, single and batch checks all call decide(), so a check
 * and the route it asks about cannot disagree. Areas register how their resources map to
 * organizations at composition (registerResourceType).
 */
export class PermissionEngine {
  private readonly resolvers = new Map<string, ResourceResolver>();
  private onDenied: (denial: Denial) => void = () => undefined;

  constructor(private readonly store: IdentityStore) {}

  /** Hears of every refusal that authorize() turns into a 403 or 404 (metrics). */
  observeDenials(fn: (denial: Denial) => void): void {
    this.onDenied = fn;
  }

  registerResourceType(type: string, resolver: ResourceResolver): void {
    if (this.resolvers.has(type)) throw new TypeError(`resource type ${type} is registered twice`);
    this.resolvers.set(type, resolver);
  }

  get resourceTypes(): string[] {
    return [...this.resolvers.keys()];
  }

  /** Where a resource lives; undefined when it does not exist. */
  async locate(type: string, id: string): Promise<ResourceLocation | undefined> {
    const resolver = this.resolvers.get(type);
    if (resolver === undefined)
      throw new AppError('invalid_request', `unknown resource type ${type}`, { details: { resource_type: type } });
    return outsideTx(() => resolver(id));
  }

  async decide(actor: Actor, action: Action, resource: ResourceRef): Promise<Decision> {
    return this.decideAt(actor, action, resource, await this.locate(resource.type, resource.id));
  }

  /**
   * decide() for a resource whose location the caller has already read (undefined: it does not
   * exist). A membership role decides the common case; team memberships and grants are read only
   * when it does not.
   */
  async decideAt(actor: Actor, action: Action, resource: ResourceRef, location: ResourceLocation | undefined): Promise<Decision> {
    const spec = catalog[action];
    if (spec === undefined) throw new TypeError(`unknown action ${action}`);
    if (location === undefined) return NOT_VISIBLE;
    if (isOperator(actor)) return BY_OPERATOR;
    if (actor.apiKey !== undefined && actor.apiKey.organizationId !== location.organizationId) return NOT_VISIBLE;
    if (actor.portal !== undefined) return decidePortal(actor.portal, action, location);
    if (spec.others !== undefined && location.ownerPrincipalId !== undefined && location.ownerPrincipalId !== actor.principalId)
      return hideDenied(await this.decideAt(actor, spec.others, resource, { ...location, ownerPrincipalId: undefined }));
    const role = await this.membershipRole(actor.principalId, location);
    const scopes = actor.apiKey?.scopes ?? [];
    const scopeMissing = scopes.length > 0 && (spec.scope === undefined || !scopes.includes(spec.scope));
    // The hot path: a role that suffices decides without reading anything else.
    if (!scopeMissing && roleAtLeast(role, spec.role)) return ALLOWED_BY_ROLE[role!];
    return this.decideFurther(actor.principalId, action, spec, resource, location, role, scopeMissing);
  }

  private async decideFurther(
    principalId: string,
    action: Action,
    spec: ActionSpec,
    resource: ResourceRef,
    location: ResourceLocation,
    membershipRole: Role | null,
    scopeMissing: boolean,
  ): Promise<Decision> {
    const role = membershipRole ?? (await this.viewerThroughTeam(principalId, location.organizationId));
    // A principal with no membership in the organization sees nothing there, exactly as if the resource
    // did not exist (so no id can be probed), and its grants count for nothing: a grant never opens an
    // organization to a stranger, not even one written before grants went to members only.
    if (role === null) return NOT_VISIBLE;
    if (!scopeMissing && roleAtLeast(role, spec.role)) return ALLOWED_BY_ROLE[role];
    if (scopeMissing) {
      const reason =
        spec.scope === undefined ? 'insufficient_scope: needs a full-access key' : `insufficient_scope: needs ${spec.scope}`;
      return { allowed: false, role, reason, denial: 'insufficient_scope' };
    }
    // Only the grants that can matter are read: on the resource and on its organization, looked up
    // by principal and resource (keys only), so the cost does not grow with the holder's other grants.
    const onOrganization = organizationRef(location.organizationId);
    const isOrganization = resource.type === onOrganization.type && resource.id === onOrganization.id;
    // A grant of the action on the resource, or on the organization it belongs to, permits it.
    const granted =
      (await this.holds(principalId, resource, action)) ||
      (!isOrganization && (await this.holds(principalId, onOrganization, action)));
    if (granted) return { allowed: true, role, reason: 'grant' };
    return { allowed: false, role, reason: `requires ${spec.role}`, denial: 'role' };
  }

  /**
   * The one resource authorization: decide(), then 404 when the caller cannot see the resource and
   * 403 when it may not act. Every service guards its operations with this.
   */
  async authorize(actor: Actor, action: Action, resource: ResourceRef): Promise<Decision> {
    return this.enforce(await this.decide(actor, action, resource), action, resource.type);
  }

  /** authorize() for a resource already read (see decideAt). */
  async authorizeAt(
    actor: Actor,
    action: Action,
    resource: ResourceRef,
    location: ResourceLocation | undefined,
  ): Promise<Decision> {
    return this.enforce(await this.decideAt(actor, action, resource, location), action, resource.type);
  }

  private enforce(decision: Decision, action: Action, type: string): Decision {
    if (decision.allowed) return decision;
    this.onDenied(decision.denial);
    if (decision.denial === 'not_visible') throw notFound(resourceLabel(type));
    const code = decision.denial === 'insufficient_scope' ? 'insufficient_scope' : 'forbidden';
    throw new AppError(code, `not allowed to ${action}: ${decision.reason}`, { details: { action, reason: decision.reason } });
  }

  /**
   * A role the actor may hand out or change: at most its own organization role, whatever let it act
   * (a grant of member.update or invitation.create delegates that action, never a role). So only
   * owners hand out, change or remove the owner role.
   */
  async requireAssignable(actor: Actor, organizationId: string, role: Role, what: string): Promise<void> {
    if (isOperator(actor)) return;
    const own = await this.effectiveRole(actor.principalId, atOrganization(organizationId));
    if (!roleAtLeast(own, role))
      throw new AppError('forbidden', `cannot ${what} with the role ${role}: it is above your own (${own ?? 'none'})`, {
        details: { reason: `requires ${role}` },
      });
  }

  /** The highest role that applies: organization-level, plus team-level on that team's resources. */
  async effectiveRole(principalId: string, location: ResourceLocation): Promise<Role | null> {
    return (await this.membershipRole(principalId, location)) ?? this.viewerThroughTeam(principalId, location.organizationId);
  }

  /**
   * The role the principal's memberships give on the location itself (point reads, cached by the
   * engine). A decision reads through the shared reader even inside a transaction (outsideTx), as every
   * request's does: a peer daemon drops a changed membership before that change's caller hears of it.
   */
  private membershipRole(principalId: string, location: ResourceLocation): Promise<Role | null> {
    return outsideTx(() => this.readMembershipRole(principalId, location));
  }

  private async readMembershipRole(principalId: string, { organizationId, teamId }: ResourceLocation): Promise<Role | null> {
    const { memberships } = this.store;
    const orgRole = (await memberships.findUnique('scope', scopeKey(organizationId, null, principalId)))?.role ?? null;
    if (teamId === null) return orgRole;
    const teamRole = (await memberships.findUnique('scope', scopeKey(organizationId, teamId, principalId)))?.role ?? null;
    return highestRole([orgRole, teamRole]);
  }

  /** Any team membership makes the organization itself visible (read-only), so members can find it. */
  private async viewerThroughTeam(principalId: string, organizationId: string): Promise<Role | null> {
    const all = await outsideTx(() => this.store.memberships.allBy('principal', principalId));
    return all.some((m) => m.organization_id === organizationId) ? 'viewer' : null;
  }

  /** Whether the principal holds a grant of `action` on the resource: one key read. */
  private holds(principalId: string, resource: ResourceRef, action: Action): Promise<boolean> {
    return outsideTx(() => this.store.grants.hasAny('principal_resource', [principalId, resource.type, resource.id, action]));
  }
}
