import t, { type Test } from 'tap';
import { createIdentityStore, type IdentityStore } from '../src/domain/identity/store.js';
import type { ApiKeyRecord, Organization, Team } from '../src/domain/identity/types.js';
import { AppError } from '../src/errors.js';
import { createLogger } from '../src/log.js';
import { NewerSchemaError, StorageLockedError } from '../src/storage/errors.js';
import { decodeTime, ulid } from 'ulid';
import { isoAt, newId, newSortableId, nowIso, sortableIdAfter } from '../src/storage/keys.js';
import { LevelStorage, READ_CACHE_MAX_ENTRIES } from '../src/storage/leveldb/engine.js';
import { KeyedLock } from '../src/storage/leveldb/lock.js';
import { migrate, readSchemaVersion, type Migration } from '../src/storage/leveldb/migrate.js';
import { codeOf, PATIENCE_MS } from './helpers.js';

const silent = createLogger('silent');

async function openStorage(t: Test, dir = t.testdir()): Promise<{ storage: LevelStorage; store: IdentityStore; dir: string }> {
  const storage = await LevelStorage.open(dir, silent);
  t.teardown(() => storage.close());
  return { storage, store: createIdentityStore(storage), dir };
}

// Distinct, increasing timestamps make the expected index order explicit.
let clock = Date.parse('2030-01-01T00:00:00.000Z');
const tick = () => new Date(clock++).toISOString();

function org(slug: string): Organization {
  return { id: newId(), slug, display_name: slug, created_by: null, created_at: tick() };
}

function team(organizationId: string, name = 'team'): Team {
  return { id: newId(), organization_id: organizationId, name, created_at: tick() };
}

function apiKey(organizationId: string, prefix: string): ApiKeyRecord {
  return {
    id: newId(),
    name: 'k',
    organization_id: organizationId,
    principal_id: newId(),
    prefix,
    key_hash: 'x'.repeat(64),
    scopes: [],
    expires_at: null,
    created_at: tick(),
    revoked_at: null,
    last_used_at: null,
  };
}

/** Every key of a sublevel: how the test sees index entries directly, not through the Collection. */
async function keysOf(storage: LevelStorage, sublevel: string): Promise<string[]> {
  return storage.sublevel(sublevel).keys().all();
}

t.test('a committed transaction writes records and index entries together', async (t) => {
  const { storage, store } = await openStorage(t);
  const o = org('acme');
  const tm = team(o.id);
  let notified = 0;
  await storage.transaction({}, async (tx) => {
    await tx.put(store.organizations, o);
    await tx.put(store.teams, tm);
    tx.afterCommit(() => notified++);
    t.equal(await tx.read(store.teams).get(tm.id), undefined, 'nothing visible before commit');
    t.equal(notified, 0, 'after-commit callbacks wait for the commit');
  });
  t.same(await store.organizations.get(o.id), o);
  t.same((await store.organizations.findUnique('slug', 'acme'))?.id, o.id);
  t.same((await store.teams.listBy('organization', o.id)).items, [tm]);
  t.equal(notified, 1);
  t.equal(await store.teams.get('no-such-id'), undefined, 'a missing key reads as undefined');
  t.equal(await store.teams.get(''), undefined);
});

t.test('transaction atomicity', async (t) => {
  t.test('a conflict while gathering writes nothing', async (t) => {
    const { storage, store } = await openStorage(t);
    const existing = org('taken');
    await storage.transaction({}, (tx) => tx.put(store.organizations, existing));

    const other = org('other');
    const tm = team(other.id);
    let notified = false;
    const code = await codeOf(
      storage.transaction({}, async (tx) => {
        tx.afterCommit(() => (notified = true));
        await tx.put(store.organizations, other);
        await tx.put(store.teams, tm);
        await tx.put(store.organizations, { ...org('taken') });
      }),
    );
    t.equal(code, 'conflict');
    t.equal(await store.organizations.get(other.id), undefined, 'the earlier record of the batch is absent');
    t.equal(await store.organizations.findUnique('slug', 'other'), undefined, 'and its unique index entry');
    t.equal(await store.teams.get(tm.id), undefined);
    t.same(await keysOf(storage, 'teams~organization'), [], 'no index entry');
    t.equal(notified, false, 'no after-commit callback');
    t.equal((await store.organizations.findUnique('slug', 'taken'))?.id, existing.id, 'the holder keeps its slug');
  });

  t.test('a batch LevelDB refuses at commit writes nothing', async (t) => {
    const { storage, store } = await openStorage(t);
    const o = org('acme');
    const tm = team(o.id);
    let notified = false;
    await t.rejects(
      storage.transaction({}, async (tx) => {
        tx.afterCommit(() => (notified = true));
        await tx.put(store.organizations, o);
        await tx.put(store.teams, tm);
        // LevelDB (abstract-level) refuses an undefined value: the whole batch is rejected.
        tx.putMeta('broken', undefined);
      }),
    );
    t.equal(notified, false, 'no after-commit callback');
    t.equal(await store.organizations.get(o.id), undefined);
    t.same(await keysOf(storage, 'organizations~slug'), []);
    t.same(await keysOf(storage, 'teams'), []);
    t.same(await keysOf(storage, 'teams~organization'), []);
  });

  t.test('a thrown error discards the writes gathered before it', async (t) => {
    const { storage, store } = await openStorage(t);
    const o = org('acme');
    let notified = false;
    await t.rejects(
      storage.transaction({}, async (tx) => {
        tx.afterCommit(() => (notified = true));
        await tx.put(store.organizations, o);
        tx.putMeta('never', true);
        throw new Error('changed my mind');
      }),
      { message: 'changed my mind' },
    );
    t.equal(notified, false, 'no after-commit callback');
    t.equal(await store.organizations.get(o.id), undefined);
    t.equal(await storage.readMeta('never'), undefined);
  });

  t.test('a batch whose database closed before commit writes nothing, even after reopening', async (t) => {
    const dir = t.testdir();
    const first = await LevelStorage.open(dir, silent);
    const store = createIdentityStore(first);
    const o = org('acme');
    const tm = team(o.id);
    await t.rejects(
      first.transaction({}, async (tx) => {
        await tx.put(store.organizations, o);
        await tx.put(store.teams, tm);
        await first.close();
        t.equal(first.isOpen, false);
      }),
    );

    const { storage, store: reopened } = await openStorage(t, dir);
    t.equal(await reopened.organizations.get(o.id), undefined);
    t.equal(await reopened.teams.get(tm.id), undefined);
    t.same(await keysOf(storage, 'organizations~slug'), []);
    t.same(await keysOf(storage, 'teams~organization'), []);
  });
});

t.test('the read cache of identity tables never answers older than the last commit', async (t) => {
  t.test('updates, deletes and unique-index moves are seen by the next read', async (t) => {
    const { storage, store } = await openStorage(t);
    const o = org('acme');
    await storage.transaction({}, (tx) => tx.put(store.organizations, o));
    t.equal((await store.organizations.get(o.id))?.slug, 'acme', 'read (and now cached)');
    t.equal((await store.organizations.findUnique('slug', 'acme'))?.id, o.id, 'unique index read (and cached)');
    t.equal(storage.cachedEntries('organizations'), 1, 'the record is cached');

    await storage.transaction({}, (tx) => tx.put(store.organizations, { ...o, slug: 'acme-2' }));
    t.equal((await store.organizations.get(o.id))?.slug, 'acme-2', 'the update is read back at once');
    t.equal(await store.organizations.findUnique('slug', 'acme'), undefined, 'the old unique value is released');
    t.equal((await store.organizations.findUnique('slug', 'acme-2'))?.id, o.id, 'the new one is found');

    await storage.transaction({}, (tx) => tx.delete(store.organizations, o.id));
    t.equal(await store.organizations.get(o.id), undefined, 'a deleted record is gone from the cache');
    t.equal(await store.organizations.findUnique('slug', 'acme-2'), undefined);
  });

  t.test('a refused batch drops what it touched, and the stored value is what is read', async (t) => {
    const { storage, store } = await openStorage(t);
    const o = org('acme');
    await storage.transaction({}, (tx) => tx.put(store.organizations, o));
    t.equal((await store.organizations.get(o.id))?.display_name, 'acme');
    await t.rejects(
      storage.transaction({}, async (tx) => {
        await tx.put(store.organizations, { ...o, display_name: 'never written' });
        tx.putMeta('broken', undefined);
      }),
    );
    t.equal((await store.organizations.get(o.id))?.display_name, 'acme', 'the committed value, not the refused one');
  });

  t.test('cached records are frozen, so a caller cannot change what the next request reads', async (t) => {
    const { storage, store } = await openStorage(t);
    const k = apiKey(newId(), 'abcdefgh');
    await storage.transaction({}, (tx) => tx.put(store.apiKeys, k));
    const cached = (await store.apiKeys.get(k.id))!;
    t.ok(Object.isFrozen(cached) && Object.isFrozen(cached.scopes), 'the record and its arrays are frozen');
    t.throws(() => {
      (cached as { revoked_at: string | null }).revoked_at = 'now';
    }, TypeError);
    t.equal((await store.apiKeys.get(k.id))?.revoked_at, null);
    t.not(k, cached, 'the object handed to put() is not the cached one (the caller may still change it)');
  });

  t.test('the cache is bounded: the oldest entries go first and are read again from disk', async (t) => {
    const { storage, store } = await openStorage(t);
    const orgs = Array.from({ length: READ_CACHE_MAX_ENTRIES + 10 }, (_, i) => org(`bulk-${i}`));
    for (let i = 0; i < orgs.length; i += 2000) {
      await storage.transaction({}, async (tx) => {
        for (const o of orgs.slice(i, i + 2000)) await tx.put(store.organizations, o);
      });
    }
    for (const o of orgs) await store.organizations.get(o.id);
    t.equal(storage.cachedEntries('organizations'), READ_CACHE_MAX_ENTRIES, 'never more than the bound');
    t.equal((await store.organizations.get(orgs[0].id))?.slug, 'bulk-0', 'an evicted record is read from disk again');
  });

  t.test('tables without a cache read straight from LevelDB', async (t) => {
    const { storage, store } = await openStorage(t);
    await store.grants.get(newId());
    t.equal(storage.cachedEntries('grants'), undefined, 'grants are not cached');
  });
});

t.test('index entries follow updates and deletes', async (t) => {
  const { storage, store } = await openStorage(t);
  const a = org('alpha');
  const b = org('beta');
  const tm = team(a.id);
  await storage.transaction({}, async (tx) => {
    await tx.put(store.organizations, a);
    await tx.put(store.organizations, b);
    await tx.put(store.teams, tm);
  });

  // Move the team to another organization: the non-unique index entry moves with it.
  const moved = { ...tm, organization_id: b.id };
  await storage.transaction({}, (tx) => tx.put(store.teams, moved));
  t.same((await store.teams.listBy('organization', a.id)).items, [], 'the old value no longer finds it');
  t.same((await store.teams.listBy('organization', b.id)).items, [moved], 'the new value does');
  t.equal((await keysOf(storage, 'teams~organization')).length, 1, 'exactly one index entry');

  // Rename a slug: the unique entry moves, and the old value is free for another record.
  await storage.transaction({}, (tx) => tx.put(store.organizations, { ...a, slug: 'alpha-2' }));
  t.equal(await store.organizations.findUnique('slug', 'alpha'), undefined);
  t.equal((await store.organizations.findUnique('slug', 'alpha-2'))?.id, a.id);
  const c = org('alpha');
  await storage.transaction({}, (tx) => tx.put(store.organizations, c));
  t.equal((await store.organizations.findUnique('slug', 'alpha'))?.id, c.id, 'a freed value can be taken');

  // An update that leaves indexed values alone keeps the entries.
  await storage.transaction({}, (tx) => tx.put(store.teams, { ...moved, name: 'renamed' }));
  t.equal((await store.teams.listBy('organization', b.id)).items[0]?.name, 'renamed');

  // Deletes remove the record and every index entry.
  await storage.transaction({}, async (tx) => {
    await tx.delete(store.teams, tm.id);
    await tx.delete(store.organizations, c.id);
    await tx.delete(store.organizations, 'not-there');
  });
  t.equal(await store.teams.get(tm.id), undefined);
  t.same((await store.teams.listBy('organization', b.id)).items, []);
  t.same(await keysOf(storage, 'teams~organization'), []);
  t.equal(await store.organizations.findUnique('slug', 'alpha'), undefined);
  t.same((await keysOf(storage, 'organizations~slug')).sort(), ['alpha-2', 'beta']);
});

t.test('a unique index refuses a second holder', async (t) => {
  const { storage, store } = await openStorage(t);
  const o = org('acme');
  const k1 = apiKey(o.id, 'AbCd1234');
  await storage.transaction({}, (tx) => tx.put(store.apiKeys, k1));

  let caught: unknown;
  try {
    await storage.transaction({}, (tx) => tx.put(store.apiKeys, apiKey(o.id, 'AbCd1234')));
  } catch (err) {
    caught = err;
  }
  t.type(caught, AppError);
  t.equal((caught as AppError).code, 'conflict');
  t.same((caught as AppError).details, { field: 'prefix' });
  t.equal((await store.apiKeys.idsBy('organization', o.id)).length, 1, 'the second key was not written');

  // The holder itself may be rewritten with the same value.
  await storage.transaction({}, (tx) => tx.put(store.apiKeys, { ...k1, name: 'renamed' }));
  t.equal((await store.apiKeys.findUnique('prefix', 'AbCd1234'))?.name, 'renamed');

  t.test('two records of one batch cannot claim the same value', async (t) => {
    const x = org('twin');
    const y = org('twin');
    const code = await codeOf(
      storage.transaction({}, async (tx) => {
        await tx.put(store.organizations, x);
        await tx.put(store.organizations, y);
      }),
    );
    t.equal(code, 'conflict');
    t.equal(await store.organizations.findUnique('slug', 'twin'), undefined);
    t.equal(await store.organizations.get(x.id), undefined);
  });

  t.test('a value released earlier in the same batch can be taken', async (t) => {
    const holder = org('swap');
    await storage.transaction({}, (tx) => tx.put(store.organizations, holder));
    const taker = org('swap');
    await storage.transaction({}, async (tx) => {
      await tx.put(store.organizations, { ...holder, slug: 'swapped' });
      await tx.put(store.organizations, taker);
    });
    t.equal((await store.organizations.findUnique('slug', 'swap'))?.id, taker.id);
    t.equal((await store.organizations.findUnique('slug', 'swapped'))?.id, holder.id);
  });
});

t.test('pagination', async (t) => {
  const { storage, store } = await openStorage(t);
  const a = org('a');
  const b = org('b');
  const teamsOfA: Team[] = [];
  await storage.transaction({}, async (tx) => {
    for (let i = 0; i < 8; i++) {
      const tm = team(a.id, `a${i}`);
      teamsOfA.push(tm);
      await tx.put(store.teams, tm);
      await tx.put(store.teams, team(b.id, `b${i}`));
    }
  });
  const allIds = (await store.teams.idsBy('organization', a.id)).concat(await store.teams.idsBy('organization', b.id)).sort();
  t.equal(allIds.length, 16);

  async function collect(read: (cursor: string | null) => Promise<{ items: Team[]; nextCursor: string | null }>) {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page = await read(cursor);
      pages.push(page.items.map((x) => x.id));
      cursor = page.nextCursor;
      if (pages.length > 20) throw new Error('pagination does not end');
    } while (cursor !== null);
    return pages;
  }

  t.test('listBy pages in index order, forward and reverse', async (t) => {
    const expected = teamsOfA.map((x) => x.id);
    const forward = await collect((cursor) => store.teams.listBy('organization', a.id, { limit: 3, cursor }));
    t.same(
      forward.map((p) => p.length),
      [3, 3, 2],
      'three pages; the last cursor is null',
    );
    t.same(forward.flat(), expected, 'no duplicates, no gaps, in created_at order, only organization a');

    const reverse = await collect((cursor) => store.teams.listBy('organization', a.id, { limit: 3, cursor, reverse: true }));
    t.same(reverse.flat(), [...expected].reverse());

    const exact = await collect((cursor) => store.teams.listBy('organization', a.id, { limit: 4, cursor }));
    t.same(
      exact.map((p) => p.length),
      [4, 4],
      'a full last page ends with a null cursor, not an empty page',
    );
  });

  t.test('list pages every record in id order, forward and reverse', async (t) => {
    const forward = await collect((cursor) => store.teams.list({ limit: 5, cursor }));
    t.same(
      forward.map((p) => p.length),
      [5, 5, 5, 1],
    );
    t.same(forward.flat(), allIds);
    const reverse = await collect((cursor) => store.teams.list({ limit: 5, cursor, reverse: true }));
    t.same(reverse.flat(), [...allIds].reverse());
  });

  t.test('limits are clamped', async (t) => {
    t.equal((await store.teams.list({ limit: 0 })).items.length, 1, 'at least one');
    t.equal((await store.teams.list()).items.length, 16, 'default 50');
    t.equal((await store.teams.list({ limit: 1000 })).nextCursor, null);
  });

  t.test('a bad cursor is invalid_request', async (t) => {
    for (const bad of ['!!!', 'not-a-cursor', '%%%', 'AAAA====']) {
      t.equal(await codeOf(store.teams.list({ cursor: bad })), 'invalid_request', `list refuses ${bad}`);
      t.equal(
        await codeOf(store.teams.listBy('organization', a.id, { cursor: bad })),
        'invalid_request',
        `listBy refuses ${bad}`,
      );
    }
    const ofA = (await store.teams.listBy('organization', a.id, { limit: 2 })).nextCursor!;
    t.equal(await codeOf(store.teams.listBy('organization', b.id, { cursor: ofA })), 'invalid_request', "another list's cursor");
  });
});

t.test('KeyedLock', async (t) => {
  const hold = () => new Promise<void>((r) => setImmediate(r));

  t.test('serialises work on one key and runs other keys alongside', async (t) => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const work = (key: string, name: string) =>
      lock.run(key, async () => {
        log.push(`${name}+`);
        await hold();
        await hold();
        log.push(`${name}-`);
        return name;
      });
    const results = await Promise.all([work('k', 'a'), work('k', 'b'), work('other', 'c'), work('k', 'd')]);
    t.same(results, ['a', 'b', 'c', 'd']);
    const onK = log.filter((e) => e !== 'c+' && e !== 'c-');
    t.same(onK, ['a+', 'a-', 'b+', 'b-', 'd+', 'd-'], 'same-key work never interleaves, in arrival order');
    t.ok(log.indexOf('c+') < log.indexOf('a-'), 'another key does not wait');
    t.equal(lock.size, 0, 'no lock left behind');
  });

  t.test('a failing holder releases the lock', async (t) => {
    const lock = new KeyedLock();
    await t.rejects(
      lock.run('k', async () => {
        throw new Error('boom');
      }),
      { message: 'boom' },
    );
    t.equal(await lock.run('k', async () => 'next'), 'next');
    t.equal(lock.size, 0);
  });

  t.test('runAll takes crossed key orders without deadlock', async (t) => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const both = (keys: string[], name: string) =>
      lock.runAll(keys, async () => {
        log.push(`${name}+`);
        await hold();
        log.push(`${name}-`);
      });
    const all = Promise.all([
      both(['x', 'y'], 'p'),
      both(['y', 'x'], 'q'),
      both(['y', 'x', 'x'], 'r'),
      lock.run('x', async () => void log.push('s')),
    ]);
    let timer: NodeJS.Timeout | undefined;
    const deadlock = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('deadlock')), PATIENCE_MS)));
    try {
      await Promise.race([all, deadlock]);
    } finally {
      clearTimeout(timer);
    }
    t.same(log, ['p+', 'p-', 'q+', 'q-', 'r+', 'r-', 's'], 'holders of both keys exclude each other');
    t.equal(lock.size, 0);
  });
});

t.test('migrate', async (t) => {
  t.test('applies ordered migrations once and records the version', async (t) => {
    const { storage } = await openStorage(t);
    const applied: number[] = [];
    const step = (version: number): Migration => ({
      version,
      name: `step ${version}`,
      up: async (s) => {
        applied.push(version);
        return [{ type: 'put', sublevel: s.meta, key: `migrated_${version}`, value: true }];
      },
    });
    t.equal(await readSchemaVersion(storage), 0, 'a new data dir is version 0');
    t.same(await migrate(storage, [step(3), step(1), step(2)]), { from: 0, to: 3 });
    t.same(applied, [1, 2, 3], 'in version order');
    t.equal(await readSchemaVersion(storage), 3);
    t.equal(await storage.meta.get('migrated_2'), true);

    t.same(await migrate(storage, [step(1), step(2), step(3), step(4)]), { from: 3, to: 4 });
    t.same(applied, [1, 2, 3, 4], 'only the new one runs');
    t.same(await migrate(storage, [step(1), step(2), step(3), step(4)]), { from: 4, to: 4 });
    t.same(applied, [1, 2, 3, 4], 'nothing runs twice');
  });

  t.test('the version bump shares its migration batch', async (t) => {
    const { storage } = await openStorage(t);
    const list: Migration[] = [
      { version: 1, name: 'fine', up: async (s) => [{ type: 'put', sublevel: s.meta, key: 'one', value: 1 }] },
      {
        version: 2,
        name: 'fails at commit',
        up: async (s) => [
          { type: 'put', sublevel: s.meta, key: 'two', value: 2 },
          { type: 'put', sublevel: s.meta, key: 'bad', value: undefined },
        ],
      },
    ];
    await t.rejects(migrate(storage, list));
    t.equal(await readSchemaVersion(storage), 1, 'the failed migration did not bump the version');
    t.equal(await storage.meta.get('two'), undefined, 'and wrote nothing');
    t.equal(await storage.meta.get('one'), 1, 'the earlier migration stands');
  });

  t.test('the shipped migrations bring a new data dir to the current version', async (t) => {
    const { storage } = await openStorage(t);
    const result = await migrate(storage);
    t.equal(result.from, 0);
    t.ok(result.to >= 1);
    t.equal(await readSchemaVersion(storage), result.to);
  });

  t.test('refuses a data dir with a newer schema', async (t) => {
    const { storage } = await openStorage(t);
    await storage.meta.put('schema_version', 99);
    let caught: unknown;
    try {
      await migrate(storage);
    } catch (err) {
      caught = err;
    }
    t.type(caught, NewerSchemaError);
    t.match((caught as Error).message, /schema version 99, newer than/);
    t.equal(await readSchemaVersion(storage), 99, 'left untouched');
  });
});

t.test('newSortableId is monotonic, also within one millisecond', async (t) => {
  const ids = Array.from({ length: 2000 }, () => newSortableId('evt_'));
  let ordered = true;
  let sameMs = 0;
  for (let i = 1; i < ids.length; i++) {
    if (!(ids[i] > ids[i - 1])) ordered = false;
    // The first 10 ULID characters are the millisecond timestamp.
    if (ids[i].slice(4, 14) === ids[i - 1].slice(4, 14)) sameMs++;
  }
  t.ok(ordered, 'strictly increasing');
  t.ok(sameMs > 0, 'some ids shared a millisecond');
  t.ok(
    ids.every((id) => /^evt_[0-9A-HJKMNP-TV-Z]{26}$/.test(id)),
    'prefix + 26-character ULID',
  );
});

t.test(
  'sortableIdAfter: greater than the last id whatever the clock says, and of its millisecond when it moves on',
  async (t) => {
    const at = Date.parse('2026-11-28T12:00:00.000Z');
    const first = sortableIdAfter('evt_', undefined, at);
    t.equal(decodeTime(first.slice(4)), at, 'a first id carries the time');
    // Made just before (known), then one from elsewhere (decoded), both with the clock standing still or back.
    const same = sortableIdAfter('evt_', first, at);
    const back = sortableIdAfter('evt_', same, at - 5_000);
    const elsewhere = `evt_${ulid(at + 10)}`;
    const afterElsewhere = sortableIdAfter('evt_', elsewhere, at);
    t.ok(same > first && back > same, 'the same millisecond and a clock gone back still go up');
    t.equal(decodeTime(back.slice(4)), at, "at the last id's time");
    t.ok(afterElsewhere > elsewhere, 'after an id this process did not make');
    t.equal(decodeTime(afterElsewhere.slice(4)), at + 10);
    const later = sortableIdAfter('evt_', afterElsewhere, at + 50);
    t.equal(decodeTime(later.slice(4)), at + 50, 'a clock that moved on is the new time');
    t.equal(decodeTime(sortableIdAfter('dlv_', later, at).slice(4)), at, "another prefix's id is not a last id");
  },
);

t.test('isoAt and nowIso write what toISOString writes', async (t) => {
  for (const ms of [0, 1, Date.parse('2026-11-28T12:00:00.123Z'), Date.parse('2026-11-28T12:00:00.123Z') + 1])
    for (let twice = 0; twice < 2; twice++) t.equal(isoAt(ms), new Date(ms).toISOString());
  const before = Date.now();
  const now = Date.parse(nowIso());
  t.ok(now >= before && now <= Date.now(), 'nowIso is now');
  t.equal(nowIso(new Date(5)), new Date(5).toISOString());
});

t.test('a second open of the same data dir is refused with a clear message', async (t) => {
  const dir = t.testdir();
  const first = await LevelStorage.open(dir, silent);
  let caught: unknown;
  try {
    const second = await LevelStorage.open(dir, silent);
    await second.close();
  } catch (err) {
    caught = err;
  }
  t.type(caught, StorageLockedError);
  t.match((caught as Error).message, dir);
  t.match((caught as Error).message, /in use by another switchyard process/);
  t.equal(first.isOpen, true, 'the first holder is unaffected');
  await first.close();
  const again = await LevelStorage.open(dir, silent);
  t.equal(again.isOpen, true, 'opens once the holder closed');
  await again.close();
});

t.test('an undeclared sublevel is a programmer error', async (t) => {
  const { storage } = await openStorage(t);
  t.throws(() => storage.sublevel('nope'), TypeError);
});
