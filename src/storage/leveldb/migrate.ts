import { OutboxStore } from '../../domain/email/store.js';
import { createEventStore } from '../../domain/events/store.js';
import { createIdentityStore } from '../../domain/identity/store.js';
import type { Grant, Membership, Organization } from '../../domain/identity/types.js';
import { JobStore } from '../../domain/jobs/store.js';
import { createPortalStore } from '../../domain/portal/store.js';
import type { StoredSettings } from '../../domain/settings/types.js';
import type { WorkflowRun } from '../../domain/workflows/types.js';
import { WebhookStore } from '../../domain/webhooks/store.js';
import type { Delivery, HandOffBatch, Webhook } from '../../domain/webhooks/types.js';
import { WorkflowStore } from '../../domain/workflows/store.js';
import type { Collection } from '../collection.js';
import { NewerSchemaError } from '../errors.js';
import { countSubjects, HourlyLog, HOURLY_LOGS, type HourlyLogEntry } from '../hourly-log.js';
import { indexSublevelName } from '../keyspace.js';
import { newSortableId, SEP } from '../keys.js';
import { defaultMigrationContext, type MigrationContext } from '../migration-context.js';
import { SCHEMA_VERSION_KEY, type BatchOp, type LevelStorage } from './engine.js';

/** One LevelDB data migration: the batch operations it writes (the version bump joins them). */
export interface Migration {
  version: number;
  name: string;
  up: (storage: LevelStorage, context: MigrationContext) => Promise<BatchOp[]>;
}

/**
 * Operations that build one index afresh from every stored record: the migration that adds an index
 * (or changes what it holds) over existing data. Unique indexes refuse duplicates as records are
 * written; a rebuild could only hide one, so they are not rebuilt.
 */
export async function rebuildIndex<T extends object>(
  storage: LevelStorage,
  collection: Collection<T>,
  index: string,
): Promise<BatchOp[]> {
  if (collection.isUnique(index)) throw new TypeError(`${collection.name}.${index} is unique: it cannot be rebuilt`);
  const sub = storage.sublevel(indexSublevelName(collection.name, index));
  const ops: BatchOp[] = [];
  for await (const key of sub.keys()) ops.push({ type: 'del', sublevel: sub, key });
  for await (const record of storage.sublevel(collection.name).values()) {
    const key = collection.indexKeyOf(index, record as T);
    if (key !== undefined) ops.push({ type: 'put', sublevel: sub, key, value: '' });
  }
  return ops;
}

/** Ordered list; append only. Version 1 is the initial layout and writes nothing else. */
export const migrations: Migration[] = [
  { version: 1, name: 'initial layout', up: () => Promise.resolve([]) },
  {
    version: 2,
    // The tables' own index specs (domain stores) build the entries, so the rules live in one place.
    name: 'indexes that make every filtered list a range read',
    up: async (storage) => {
      const identity = createIdentityStore(storage);
      const events = createEventStore(storage);
      const outbox = new OutboxStore(storage).entries;
      const parts = [
        await rebuildIndex(storage, identity.memberships, 'team'),
        await rebuildIndex(storage, identity.memberships, 'owner'),
        await rebuildIndex(storage, identity.grants, 'resource'),
        // `organization` held revoked keys too; it now holds active keys only, as the lists show.
        await rebuildIndex(storage, identity.apiKeys, 'organization'),
        await rebuildIndex(storage, identity.apiKeys, 'organization_principal'),
        await rebuildIndex(storage, outbox, 'organization_status'),
        await rebuildIndex(storage, events, 'kind'),
        await rebuildIndex(storage, events, 'organization_kind'),
      ];
      return parts.flat();
    },
  },
  {
    version: 3,
    name: 'grants by principal and resource (permission checks read only the grants that apply)',
    up: async (storage) => rebuildIndex(storage, createIdentityStore(storage).grants, 'principal_resource'),
  },
  { version: 4, name: 'hourly logs keyed by entry id, with a subject index in time order', up: rekeyHourlyLogs },
  {
    version: 5,
    name: 'webhook deliveries due, per webhook, and the webhooks that have some',
    up: async (storage) => {
      const { deliveries } = new WebhookStore(storage);
      return [
        ...(await rebuildIndex(storage, deliveries, 'webhook_due')),
        ...(await rebuildIndex(storage, deliveries, 'due_webhooks')),
      ];
    },
  },
  {
    version: 6,
    name: 'every API key by organization, revoked ones too',
    up: async (storage) => rebuildIndex(storage, createIdentityStore(storage).apiKeys, 'organization_all'),
  },
  {
    version: 7,
    name: 'runs waiting for input, by when they began to (expiry)',
    up: async (storage) => rebuildIndex(storage, new WorkflowStore(storage).runs, 'waiting'),
  },
  { version: 8, name: "every subject's hourly-log count, with its oldest entry's time", up: countHourlyLogs },
  { version: 9, name: "one display name per organization, the record's (settings read and write it)", up: oneDisplayName },
  {
    version: 10,
    name: 'portal sessions by when they end (sweep)',
    up: async (storage) => rebuildIndex(storage, createPortalStore(storage), 'expiry'),
  },
  {
    version: 11,
    name: 'ended jobs by when they ended (purge)',
    up: async (storage) => rebuildIndex(storage, new JobStore(storage).jobs, 'finished'),
  },
  { version: 12, name: "deliveries by the organization that owns their webhook (the organization's list)", up: ownDeliveries },
  { version: 13, name: 'runs waiting for input, by their own deadline (expiry)', up: dateWaitingRuns },
  { version: 14, name: "grants of principals who are not members of the grant's organization, deleted", up: dropStrangersGrants },
];

export async function readSchemaVersion(storage: LevelStorage): Promise<number> {
  return ((await storage.readMeta(SCHEMA_VERSION_KEY)) as number | undefined) ?? 0;
}

/**
 * Deliveries gain the organization of their webhook (null: a platform webhook, or one no longer
 * stored), and the indexes of the organization's list are built from it; hand-off batches waiting for
 * a takeover gain it too. PostgreSQL migration 22 does the same.
 */
async function ownDeliveries(storage: LevelStorage): Promise<BatchOp[]> {
  const store = new WebhookStore(storage);
  const owners = new Map<string, string | null>();
  const ownerOf = async (webhookId: string): Promise<string | null> => {
    let owner = owners.get(webhookId);
    if (owner === undefined) {
      owner = ((await storage.sublevel('webhooks').get(webhookId)) as Webhook | undefined)?.organization_id ?? null;
      owners.set(webhookId, owner);
    }
    return owner;
  };
  const records = storage.sublevel(store.deliveries.name);
  const ops: BatchOp[] = [];
  const indexes = ['organization', 'organization_status', 'webhook_status'];
  for (const index of indexes) {
    const sub = storage.sublevel(indexSublevelName(store.deliveries.name, index));
    for await (const key of sub.keys()) ops.push({ type: 'del', sublevel: sub, key });
  }
  for await (const [key, value] of records.iterator()) {
    const delivery = { ...(value as Delivery), webhook_organization_id: await ownerOf((value as Delivery).webhook_id) };
    ops.push({ type: 'put', sublevel: records, key, value: delivery });
    for (const index of indexes) {
      const indexKey = store.deliveries.indexKeyOf(index, delivery);
      if (indexKey !== undefined)
        ops.push({
          type: 'put',
          sublevel: storage.sublevel(indexSublevelName(store.deliveries.name, index)),
          key: indexKey,
          value: '',
        });
    }
  }
  const batches = storage.sublevel(store.handoffs.name);
  for await (const [key, value] of batches.iterator()) {
    const batch = value as HandOffBatch;
    const deliveries = [];
    for (const h of batch.deliveries) deliveries.push({ ...h, webhook_organization_id: await ownerOf(h.webhook_id) });
    ops.push({ type: 'put', sublevel: batches, key, value: { ...batch, deliveries } });
  }
  return ops;
}

/**
 * Hourly logs used to key each entry by subject, time and id, with that key inside the record too;
 * they become records with an id of their own and a `subject` index in time order (no NUL byte in a
 * record, which PostgreSQL's JSONB cannot hold).
 */
async function rekeyHourlyLogs(storage: LevelStorage): Promise<BatchOp[]> {
  const ops: BatchOp[] = [];
  for (const name of HOURLY_LOGS) {
    const log = new HourlyLog(storage, name);
    const records = storage.sublevel(name);
    const index = storage.sublevel(indexSublevelName(name, 'subject'));
    for await (const [key, value] of records.iterator()) {
      ops.push({ type: 'del', sublevel: records, key });
      const { key: _old, ...rest } = value as { key?: string; at: string };
      const entry = { ...rest, id: newSortableId(), subject: key.split(SEP)[0] };
      ops.push({ type: 'put', sublevel: records, key: entry.id, value: entry });
      ops.push({ type: 'put', sublevel: index, key: log.entries.indexKeyOf('subject', entry)!, value: '' });
    }
  }
  return ops;
}

/** Each hourly log's counts per subject, written afresh (hourly-log.ts: no count, no entries). */
async function countHourlyLogs(storage: LevelStorage): Promise<BatchOp[]> {
  const counters = storage.sublevel('counters');
  const ops: BatchOp[] = [];
  for (const name of HOURLY_LOGS) {
    const entries: HourlyLogEntry[] = [];
    for await (const value of storage.sublevel(name).values()) entries.push(value as HourlyLogEntry);
    for (const count of countSubjects(entries, name)) ops.push({ type: 'put', sublevel: counters, key: count.id, value: count });
  }
  return ops;
}

/**
 * Organizations had two display names: the record's and settings' `display_name` (which invitation
 * mail showed, the slug unless an owner set it). The record's becomes the only one: a name an owner
 * set in settings replaces the record's (it is what invitees have been shown), and settings records
 * lose the field. PostgreSQL migration 19 does the same.
 */
async function oneDisplayName(storage: LevelStorage): Promise<BatchOp[]> {
  const settings = storage.sublevel('organization_settings');
  const organizations = storage.sublevel('organizations');
  const ops: BatchOp[] = [];
  for await (const [key, value] of settings.iterator()) {
    const { display_name: name, ...rest } = value as StoredSettings;
    if (name === undefined) continue;
    ops.push({ type: 'put', sublevel: settings, key, value: rest });
    const org = (await organizations.get(rest.organization_id)) as Organization | undefined;
    if (typeof name === 'string' && name !== '' && org !== undefined && org.display_name !== name)
      ops.push({ type: 'put', sublevel: organizations, key: org.id, value: { ...org, display_name: name } });
  }
  return ops;
}

/**
 * Waiting runs were keyed by when they began to wait (one timeout for every run); each now carries its
 * deadline and is keyed by it. Runs already waiting keep today's: began + SERVICE_RUN_WAIT_TIMEOUT_MS.
 * PostgreSQL migration 23 does the same.
 */
async function dateWaitingRuns(storage: LevelStorage, context: MigrationContext): Promise<BatchOp[]> {
  const { runs } = new WorkflowStore(storage);
  const records = storage.sublevel(runs.name);
  const index = storage.sublevel(indexSublevelName(runs.name, 'waiting'));
  const ops: BatchOp[] = [];
  for await (const key of index.keys()) {
    const id = key.split(SEP).at(-1)!;
    const run = (await records.get(id)) as WorkflowRun | undefined;
    if (run === undefined) continue;
    const began = run.updated_at;
    const dated = { ...run, wait_expires_at: new Date(Date.parse(began) + context.runWaitTimeoutMs).toISOString() };
    ops.push({ type: 'del', sublevel: index, key });
    ops.push({ type: 'put', sublevel: index, key: runs.indexKeyOf('waiting', dated)!, value: '' });
    ops.push({ type: 'put', sublevel: records, key: id, value: dated });
  }
  return ops;
}

/**
 * Only members hold grants (since grants went to members only, and the permission check ignores the
 * rest); older daemons stored grants on principals with no membership in the grant's organization,
 * which lists still showed. They are deleted with their index entries. A membership on a team is one
 * in the team's organization (its record names it). PostgreSQL migration 24 does the same.
 */
async function dropStrangersGrants(storage: LevelStorage): Promise<BatchOp[]> {
  const { grants } = createIdentityStore(storage);
  const members = new Set<string>();
  for await (const value of storage.sublevel('memberships').values()) {
    const m = value as Membership;
    members.add(`${m.organization_id}${SEP}${m.principal_id}`);
  }
  const records = storage.sublevel(grants.name);
  const ops: BatchOp[] = [];
  for await (const [key, value] of records.iterator()) {
    const grant = value as Grant;
    if (members.has(`${grant.organization_id}${SEP}${grant.principal_id}`)) continue;
    ops.push({ type: 'del', sublevel: records, key });
    for (const { name } of grants.indexes) {
      const indexKey = grants.indexKeyOf(name, grant);
      if (indexKey !== undefined)
        ops.push({ type: 'del', sublevel: storage.sublevel(indexSublevelName(grants.name, name)), key: indexKey });
    }
  }
  return ops;
}

/** Applies every migration above the stored version, each in its own batch with its version bump. */
export async function migrate(
  storage: LevelStorage,
  list: Migration[] = migrations,
  context: MigrationContext = defaultMigrationContext,
): Promise<{ from: number; to: number }> {
  const from = await readSchemaVersion(storage);
  const latest = list.reduce((max, m) => Math.max(max, m.version), 0);
  if (from > latest) throw new NewerSchemaError(from, latest);
  const pending = [...list].sort((a, b) => a.version - b.version).filter((m) => m.version > from);
  for (const m of pending) {
    const ops = await m.up(storage, context);
    ops.push({ type: 'put', sublevel: storage.meta, key: SCHEMA_VERSION_KEY, value: m.version });
    await storage.writeOps(ops);
    storage.log.info({ version: m.version, migration: m.name }, 'migration applied');
  }
  return { from, to: Math.max(from, latest) };
}
