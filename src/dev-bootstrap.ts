import { operator } from './domain/identity/caller.js';
import type { IdentityServices } from './domain/identity/index.js';
import type { CreatedApiKey } from './domain/identity/api-keys.js';
import type { Organization } from './domain/identity/types.js';
import { isAppError } from './errors.js';
import type { Logger } from './log.js';
import { nowIso } from './storage/keys.js';
import type { Storage } from './storage/port.js';

// `serve --dev`: a newcomer gets an organization and a working key without reading any docs.
// Only the first start of a data dir does it (a meta flag), so the key is shown exactly once;
// `serve` shows it (dev-banner.ts), and on later starts which organization it is.

const FLAG_KEY = 'dev_bootstrapped_at';
const DEV_ORGANIZATION_SLUG = 'dev';
const DEV_OWNER_EMAIL = 'dev@switchyard.localhost';

export interface DevBootstrapOptions {
  storage: Storage;
  services: Pick<IdentityServices, 'organizations' | 'apiKeys'>;
  log: Logger;
}

export interface DevBootstrap {
  /** Undefined only when a later start finds no `dev` organization (its slug taken back by hand). */
  organization: Organization | undefined;
  /** The owner key, on the first start only. */
  key: CreatedApiKey | null;
}

async function findOrganization(services: DevBootstrapOptions['services'], slug: string): Promise<Organization | undefined> {
  try {
    return await services.organizations.getOrganization(operator, slug);
  } catch (err) {
    if (isAppError(err) && err.code === 'not_found') return undefined;
    throw err;
  }
}

/**
 * On the first start only: organization `dev`, its owner, a full-access key acting as that owner.
 * Later starts only look the organization up, so `serve` can say which it is.
 */
export async function bootstrapDev({ storage, services, log }: DevBootstrapOptions): Promise<DevBootstrap> {
  if ((await storage.readMeta(FLAG_KEY)) !== undefined)
    return { organization: await findOrganization(services, DEV_ORGANIZATION_SLUG), key: null };
  // A `dev` organization without the flag means a start that stopped half-way: finish it.
  const organization =
    (await findOrganization(services, DEV_ORGANIZATION_SLUG)) ??
    (
      await services.organizations.createOrganization(operator, {
        slug: DEV_ORGANIZATION_SLUG,
        display_name: 'Development',
        owner_email: DEV_OWNER_EMAIL,
      })
    ).organization;
  const key = await services.apiKeys.createApiKey(operator, { name: 'dev (serve --dev)', organization_id: organization.id });
  await storage.transaction({}, (tx) => {
    tx.putMeta(FLAG_KEY, nowIso());
    return Promise.resolve();
  });

  log.info({ organization_id: organization.id, api_key_id: key.id, prefix: key.prefix }, 'development organization created');
  return { organization, key };
}
