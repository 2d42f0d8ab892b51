import { randomBytes } from 'node:crypto';
import { AppError, notFound, validationFailed } from '../../errors.js';
import type { AuditLog } from '../audit/service.js';
import type { Logger } from '../../log.js';
import type { Page, PageOptions } from '../../storage/collection.js';
import { newId, nowIso } from '../../storage/keys.js';
import type { Storage, Tx } from '../../storage/port.js';
import { idSchema } from '../schemas.js';
import { digestMatches, digestSecret } from '../secrets.js';
import { isOperator, type Actor, type ApiKeyScope, type Caller } from './caller.js';
import type { MembershipService } from './memberships.js';
import type { OrganizationService } from './organizations.js';
import { atOrganization, organizationRef, type PermissionEngine, type ResourceLocation } from './permissions.js';
import { apiKeyLifetimeSeconds } from './schemas.js';
import type { IdentityStore } from './store.js';
import { viewApiKey, type ApiKeyRecord, type ApiKeyView } from './types.js';

const KEY_FORMAT = /^svc_([A-Za-z0-9]{8})_([A-Za-z0-9_-]{43,})$/;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export interface CreateApiKeyInput {
  name: string;
  organization_id: string;
  scopes?: ApiKeyScope[];
  expires_at?: string;
  expires_in_seconds?: number;
  /** Operator only: the principal the key acts as (default: the organization's first owner). */
  principal_id?: string;
}

export type CreatedApiKey = ApiKeyView & { raw_key: string };

/** API keys: `svc_` + 8-character lookup prefix + `_` + 32 random bytes; stored only as SHA-256. */
export class ApiKeyService {
  private readonly lastUsedWrites = new Map<string, number>();

  constructor(
    private readonly storage: Storage,
    private readonly store: IdentityStore,
    private readonly permissions: PermissionEngine,
    private readonly organizations: OrganizationService,
    private readonly memberships: MembershipService,
    private readonly audit: AuditLog,
    private readonly log: Logger,
  ) {}

  /** Where an API key lives, and whose it is (members act on their own keys only). */
  async locateApiKey(id: string): Promise<ResourceLocation | undefined> {
    const key = await this.store.apiKeys.get(id);
    return key && { ...atOrganization(key.organization_id), ownerPrincipalId: key.principal_id };
  }

  async createApiKey(actor: Actor, input: CreateApiKeyInput): Promise<CreatedApiKey> {
    const org = await this.organizations.getOrganization(actor, input.organization_id);
    await this.permissions.authorize(actor, 'apikey.create', organizationRef(org.id));
    let principalId: string;
    if (isOperator(actor)) {
      principalId = input.principal_id ?? (await this.memberships.listOwners(org.id))[0]?.principal_id ?? '';
      if (principalId === '') throw new AppError('invalid_state', 'the organization has no owner to act as');
      const role = await this.permissions.effectiveRole(principalId, atOrganization(org.id));
      if (role === null) throw validationFailed({ principal_id: 'not a member of this organization' });
    } else {
      if (input.principal_id !== undefined && input.principal_id !== actor.principalId) {
        throw new AppError('forbidden', 'an API key can only be created to act as yourself');
      }
      principalId = actor.principalId;
    }
    const now = Date.now();
    let expiresAt: string | null = null;
    if (input.expires_in_seconds !== undefined) expiresAt = new Date(now + input.expires_in_seconds * 1000).toISOString();
    else if (input.expires_at !== undefined) {
      const t = Date.parse(input.expires_at);
      if (!(t >= now + apiKeyLifetimeSeconds.min * 1000 && t <= now + apiKeyLifetimeSeconds.max * 1000))
        throw validationFailed({ expires_at: 'must be between 60 seconds and 10 years from now' });
      expiresAt = new Date(t).toISOString();
    }
    const prefix = base62(8);
    const raw = `svc_${prefix}_${randomBytes(32).toString('base64url')}`;
    const record: ApiKeyRecord = {
      id: newId(),
      name: input.name.trim(),
      organization_id: org.id,
      principal_id: principalId,
      prefix,
      key_hash: digestSecret(raw).toString('hex'),
      scopes: [...new Set(input.scopes ?? [])],
      expires_at: expiresAt,
      created_at: nowIso(new Date(now)),
      revoked_at: null,
      last_used_at: null,
    };
    await this.storage.transaction({ locks: [apiKeyNamesLock(org.id)] }, async (tx) => {
      const taken = (await this.activeKeysNamed(org.id, record.name, tx))[0];
      if (taken !== undefined)
        throw new AppError('conflict', `an active API key named ${taken.name} already exists in this organization`, {
          details: { field: 'name', api_key_id: taken.id },
        });
      this.audit.recordChange(tx, actor, 'apikey.create', 'api_key', undefined, record);
      await tx.put(this.store.apiKeys, record);
    });
    return { ...viewApiKey(record), raw_key: raw };
  }

  /**
   * Active keys of the organization: all of them for admins and the operator, else the caller's own.
   * `include_revoked` (admins and the operator) lists revoked keys too.
   */
  async listApiKeys(
    actor: Actor,
    organizationId: string,
    options: PageOptions & { include_revoked?: boolean } = {},
  ): Promise<Page<ApiKeyView>> {
    const { include_revoked: includeRevoked, ...page } = options;
    await this.permissions.authorize(actor, 'apikey.read', organizationRef(organizationId));
    if (includeRevoked === true) await this.permissions.authorize(actor, 'apikey.manage', organizationRef(organizationId));
    const seesAll = (await this.permissions.decide(actor, 'apikey.manage', organizationRef(organizationId))).allowed;
    // Every index is one range read, never thinned afterwards: two hold active keys only, one every key.
    const result = includeRevoked
      ? await this.store.apiKeys.listBy('organization_all', organizationId, page)
      : seesAll || isOperator(actor)
        ? await this.store.apiKeys.listBy('organization', organizationId, page)
        : await this.store.apiKeys.listBy('organization_principal', [organizationId, actor.principalId], page);
    return { items: result.items.map(viewApiKey), nextCursor: result.nextCursor };
  }

  /**
   * A key named by id, or by name among the organization's active keys (names compare
   * case-insensitively). With `organizationId`, a key of another organization is not_found.
   */
  async findApiKey(actor: Actor, organizationId: string | undefined, ref: string): Promise<ApiKeyView> {
    let key: ApiKeyRecord | undefined;
    if (idSchema.safeParse(ref).success) {
      key = await this.store.apiKeys.get(ref.toLowerCase());
      if (key !== undefined && organizationId !== undefined && key.organization_id !== organizationId) key = undefined;
    }
    if (key === undefined && organizationId !== undefined) {
      const named = await this.activeKeysNamed(organizationId, ref);
      if (named.length > 1)
        throw new AppError('invalid_request', `${named.length} active API keys are named ${ref.trim()}: name the key by its id`, {
          details: { api_key_ids: named.map((k) => k.id) },
        });
      key = named[0];
    }
    if (key === undefined) throw notFound('api key');
    return this.getApiKey(actor, key.id);
  }

  /** Active keys of the organization with this name (more than one only in data older than the rule). */
  private async activeKeysNamed(organizationId: string, name: string, tx?: Tx): Promise<ApiKeyRecord[]> {
    const wanted = name.trim().toLowerCase();
    const all = await this.store.apiKeys.in(tx).allBy('organization', organizationId);
    return all.filter((k) => k.revoked_at === null && k.name.toLowerCase() === wanted);
  }

  async getApiKey(actor: Actor, id: string): Promise<ApiKeyView> {
    await this.permissions.authorize(actor, 'apikey.read', { type: 'api_key', id });
    return viewApiKey((await this.store.apiKeys.get(id))!);
  }

  /** Revokes the key; it stops working on the next request. Revoking twice answers the same record. */
  async revokeApiKey(actor: Actor, id: string): Promise<ApiKeyView> {
    await this.permissions.authorize(actor, 'apikey.delete', { type: 'api_key', id });
    return this.storage.transaction({ locks: [apiKeyLock(id)] }, async (tx) => {
      const current = (await tx.get(this.store.apiKeys, id))!;
      if (current.revoked_at !== null) return viewApiKey(current);
      const next = { ...current, revoked_at: nowIso(), revoked_reason: 'revoked' };
      this.audit.recordChange(tx, actor, 'apikey.revoke', 'api_key', current, next);
      return viewApiKey(await tx.put(this.store.apiKeys, next));
    });
  }

  /** Verifies a presented key: prefix lookup (a cached point read), then a constant-time comparison of SHA-256 digests. */
  async authenticate(raw: string): Promise<Caller> {
    const match = KEY_FORMAT.exec(raw);
    if (match === null) throw new AppError('unauthenticated', 'invalid API key');
    const record = await this.store.apiKeys.findUnique('prefix', match[1]);
    if (!digestMatches(raw, record?.key_hash) || record === undefined) throw new AppError('unauthenticated', 'invalid API key');
    if (record.revoked_at !== null) throw new AppError('unauthenticated', 'API key revoked', { reason: 'revoked' });
    if (record.expires_at !== null && Date.parse(record.expires_at) <= Date.now())
      throw new AppError('unauthenticated', 'API key expired', { reason: 'expired' });
    this.touch(record.id);
    return {
      principalId: record.principal_id,
      method: 'api_key',
      apiKey: { id: record.id, organizationId: record.organization_id, scopes: record.scopes },
    };
  }

  /** Records last use at most once a minute per key, after the request's answer (never awaited). */
  private touch(id: string): void {
    const now = Date.now();
    if (now - (this.lastUsedWrites.get(id) ?? 0) < LAST_USED_WRITE_INTERVAL_MS) return;
    this.lastUsedWrites.set(id, now);
    setImmediate(() => {
      if (!this.storage.isOpen) return;
      this.storage
        .transaction({ locks: [apiKeyLock(id)] }, async (tx) => {
          // Closed while this waited for the lock (shutdown): nothing to record.
          if (!this.storage.isOpen) return;
          const current = await tx.get(this.store.apiKeys, id);
          if (current === undefined || current.revoked_at !== null) return;
          await tx.put(this.store.apiKeys, { ...current, last_used_at: new Date(now).toISOString() });
        })
        .catch((err: unknown) => this.log.warn({ err, api_key_id: id }, 'could not record API key use'));
    });
  }
}

/** Held while a key's name is checked and the key written, so two concurrent creates cannot share a name. */
function apiKeyNamesLock(organizationId: string): string {
  return `api-key-names:${organizationId}`;
}

/** Every read-modify-write of one API key (revoke, last use) holds its lock. */
function apiKeyLock(id: string): string {
  return `api-key:${id}`;
}
