import { OutboxStore } from '../domain/email/store.js';
import { createEventStore } from '../domain/events/store.js';
import { createIdentityStore } from '../domain/identity/store.js';
import type { Storage } from './db.js';
import { UnitOfWork } from './unit-of-work.js';

export interface Migration {
  version: number;
  name: string;
  /** Adds its writes to the unit of work; the new schema version is written in the same batch. */
  up: (storage: Storage, uow: UnitOfWork) => Promise<void>;
}

const SCHEMA_VERSION_KEY = 'schema_version';

/** Ordered list; append only. Version 1 is the initial layout and writes nothing else. */
export const migrations: Migration[] = [
  { version: 1, name: 'initial layout', up: async () => {} },
  {
    version: 2,
    // The tables' own index specs (domain stores) build the entries, so the rules live in one place.
    name: 'indexes that make every filtered list a range read',
    up: async (storage, uow) => {
      const identity = createIdentityStore(storage);
      await identity.memberships.rebuildIndex(uow, 'team');
      await identity.memberships.rebuildIndex(uow, 'owner');
      await identity.grants.rebuildIndex(uow, 'resource');
      // `organization` held revoked keys too; it now holds active keys only, as the lists show.
      await identity.apiKeys.rebuildIndex(uow, 'organization');
      await identity.apiKeys.rebuildIndex(uow, 'organization_principal');
      await new OutboxStore(storage).entries.rebuildIndex(uow, 'organization_status');
      const events = createEventStore(storage);
      await events.rebuildIndex(uow, 'kind');
      await events.rebuildIndex(uow, 'organization_kind');
    },
  },
  {
    version: 3,
    name: 'grants by principal and resource (permission checks read only the grants that apply)',
    up: async (storage, uow) => {
      await createIdentityStore(storage).grants.rebuildIndex(uow, 'principal_resource');
    },
  },
];

export class NewerSchemaError extends Error {
  constructor(found: number, known: number) {
    super(`the data directory has schema version ${found}, newer than this switchyard knows (${known}); upgrade switchyard`);
    this.name = 'NewerSchemaError';
  }
}

export async function readSchemaVersion(storage: Storage): Promise<number> {
  return ((await storage.meta.get(SCHEMA_VERSION_KEY)) as number | undefined) ?? 0;
}

/** Applies every migration above the stored version, each in its own batch with its version bump. */
export async function migrate(storage: Storage, list: Migration[] = migrations): Promise<{ from: number; to: number }> {
  const from = await readSchemaVersion(storage);
  const latest = list.reduce((max, m) => Math.max(max, m.version), 0);
  if (from > latest) throw new NewerSchemaError(from, latest);
  const pending = [...list].sort((a, b) => a.version - b.version).filter((m) => m.version > from);
  for (const m of pending) {
    const uow = new UnitOfWork(storage);
    await m.up(storage, uow);
    uow.putRaw(storage.meta, SCHEMA_VERSION_KEY, m.version);
    await uow.commit();
    storage.log.info({ version: m.version, migration: m.name }, 'migration applied');
  }
  return { from, to: Math.max(from, latest) };
}
