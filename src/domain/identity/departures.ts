import { nowIso } from '../../storage/keys.js';
import type { Tx } from '../../storage/port.js';
import type { IdentityStore } from './store.js';

/** Why the API keys of a principal that left an organization stopped working. */
export const MEMBER_REMOVED = 'member removed';

/**
 * A principal with no membership left in an organization keeps no power there: inside `tx` (which
 * already deletes the memberships), its ACL grants in the organization are deleted and the API keys it
 * created there are revoked. Revoked keys stay revoked if the principal is added again later.
 */
export async function removeDepartedAccess(
  store: IdentityStore,
  tx: Tx,
  organizationId: string,
  principalIds: Iterable<string>,
): Promise<void> {
  for (const principalId of new Set(principalIds)) {
    if (await isMember(store, tx, organizationId, principalId)) continue;
    for (const id of await tx.read(store.grants).idsBy('principal', principalId)) {
      const grant = await tx.get(store.grants, id);
      if (grant?.organization_id === organizationId) await tx.delete(store.grants, id);
    }
    const now = nowIso();
    // The organization_principal index holds active keys only.
    for (const id of await tx.read(store.apiKeys).idsBy('organization_principal', [organizationId, principalId])) {
      const key = await tx.get(store.apiKeys, id);
      if (key !== undefined && key.revoked_at === null)
        await tx.put(store.apiKeys, { ...key, revoked_at: now, revoked_reason: MEMBER_REMOVED });
    }
  }
}

/**
 * Whether the principal holds any membership (organization-level or on a team) in the organization,
 * as `tx` leaves it (its deletes included). Only a member may hold grants there.
 */
export async function isMember(store: IdentityStore, tx: Tx, organizationId: string, principalId: string): Promise<boolean> {
  for (const id of await tx.read(store.memberships).idsBy('principal', principalId)) {
    const membership = await tx.get(store.memberships, id);
    if (membership?.organization_id === organizationId) return true;
  }
  return false;
}
