// Contract 11, docs/storage.md ("Running two or more daemons", "When a daemon dies"): real daemons,
// as child processes, share one PostgreSQL database. Every write a client saw acknowledged survives
// the SIGKILL of the daemon that did not answer it, a write it died in the middle of leaves nothing,
// and a unique slug is held once; a key revoked through one daemon is refused by the other on its
// next request (a request that overtakes the change notice is a TODO, see that test); an
// organization's invitation limit holds across daemons; mail whose daemon died mid-send is sent again
// by the other under the same Idempotency-Key: every mail goes out, the provider sees a key at most twice.
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import t, { type Test } from 'tap';
import { fakeProvider, providerEnv } from './fakes/email-provider.js';
import {
  asPrincipal,
  bearer,
  request,
  spawnDaemon,
  waitFor,
  waitForExit,
  type ChildDaemon,
  type JsonResponse,
} from './helpers.js';
import { findPostgres, startPostgres } from './support/postgres.js';

const found = findPostgres();

if ('missing' in found) {
  t.plan(0, `missing ${found.missing}`);
} else {
  const cluster = await startPostgres(t);

  /** Settings every daemon here runs with; limits that are not under test are out of the way. */
  const baseEnv = {
    SERVICE_ORG_CREATE_PER_HOUR: '100000',
    SERVICE_INVITE_PER_RECIPIENT_PER_HOUR: '1000',
    SERVICE_DATABASE_POOL_SIZE: '10',
  };

  /** A subtest that hangs (a request no daemon answers) fails by name, and its teardown kills its daemons. */
  const bounded = { timeout: 120_000 };

  /** Two daemons (A and B) on a fresh database, each with its own data dir, started together. */
  const twoDaemons = async (
    t: Test,
    env: (name: 'a' | 'b') => Record<string, string> = () => ({}),
  ): Promise<{ a: ChildDaemon; b: ChildDaemon; db: pg.Pool }> => {
    const url = await cluster.createDatabase();
    const start = (name: 'a' | 'b') => {
      const dataDir = path.join(t.testdir(), name);
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      return spawnDaemon(t, [], { ...baseEnv, ...env(name), SERVICE_DATABASE_URL: url, SERVICE_DATA_DIR: dataDir });
    };
    const [a, b] = await Promise.all([start('a'), start('b')]);
    const db = new pg.Pool({ connectionString: url, max: 2 });
    t.teardown(() => db.end());
    return { a, b, db };
  };

  /** SIGKILLs the daemon's whole process group and waits (bounded) for it to be gone. */
  const sigkill = async (d: ChildDaemon): Promise<void> => {
    process.kill(-d.child.pid!, 'SIGKILL');
    await waitFor(() => d.child.exitCode !== null || d.child.signalCode !== null, { what: 'the killed daemon to exit' });
  };

  /**
   * The advisory lock id the PostgreSQL engine takes for a transaction lock key (lockId in
   * src/storage/postgres/engine.ts: the first 8 bytes of its SHA-256, as a signed 64-bit integer).
   */
  const advisoryLockKey = (key: string): string => createHash('sha256').update(key).digest().readBigInt64BE(0).toString();
  /** Sessions waiting for the advisory lock $1 (a bigint key is split over classid and objid). */
  const waitingOn = `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objsubid = 1
    AND classid = (($1::bigint >> 32) & 4294967295)::text::oid AND objid = ($1::bigint & 4294967295)::text::oid`;

  /** The request's answer, or undefined when it got none (connection refused or reset). */
  const tryRequest = async (...args: Parameters<typeof request>): Promise<JsonResponse | undefined> => {
    try {
      return await request(...args);
    } catch {
      return undefined;
    }
  };

  /** Runs fn(0..count-1) with at most `width` calls in flight, in index order. */
  const inFlight = async (width: number, count: number, fn: (i: number) => Promise<void>): Promise<void> => {
    let next = 0;
    const worker = async () => {
      while (next < count) await fn(next++);
    };
    await Promise.all(Array.from({ length: width }, worker));
  };

  const createOrg = async (base: string, owner: string, slug: string) => {
    const res = await request(base, 'POST', '/v1/organizations', { headers: asPrincipal(owner), body: { slug } });
    if (res.status !== 201) throw new Error(`creating organization ${slug}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data as { id: string; slug: string };
  };

  // A daemon whose database stops answering (here: a table locked by another session) when SIGTERM
  // comes: a request and the loops' ticks wait on it, and closing the storage would wait for their
  // connections for ever. Shutdown gives each step SERVICE_SHUTDOWN_TIMEOUT_MS and exits.
  t.test('SIGTERM while the database holds every query: shutdown is still bounded, exit 0', bounded, async (t) => {
    const url = await cluster.createDatabase();
    const daemon = await spawnDaemon(t, [], {
      ...baseEnv,
      SERVICE_DATABASE_URL: url,
      SERVICE_DATA_DIR: path.join(t.testdir(), 'a'),
      SERVICE_SHUTDOWN_TIMEOUT_MS: '300',
    });
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    t.teardown(() => db.end());
    await db.query('BEGIN');
    await db.query('LOCK TABLE meta IN ACCESS EXCLUSIVE MODE');
    // An organization's creation appends its event, which moves the log's last id in `meta`: it waits.
    const owner = asPrincipal(randomUUID());
    const stuck = tryRequest(daemon.url, 'POST', '/v1/organizations', { headers: owner, body: { slug: 'stuck' } });
    await waitFor(
      async () => (await db.query("SELECT 1 FROM pg_locks WHERE relation = 'meta'::regclass AND NOT granted")).rowCount! > 0,
      { what: 'a daemon query waiting on the lock' },
    );
    daemon.child.kill('SIGTERM');
    t.equal(await waitForExit(daemon, 'exit after SIGTERM'), 0, 'exit code 0');
    t.match(daemon.output(), /closing the storage did not finish in time; going on/, 'the storage step is logged as abandoned');
    await db.query('ROLLBACK');
    t.equal(await stuck, undefined, 'the waiting request got no answer (its connection was cut at shutdown)');
  });

  t.test('1,000 writes spread over both while one is SIGKILLed halfway', bounded, async (t) => {
    const { a, b, db } = await twoDaemons(t);
    const owners = Array.from({ length: 16 }, () => randomUUID());
    const TOTAL = 1000;
    const KILL_AT = 500;

    const orgs: { id: string; slug: string; owner: string }[] = [];
    const members: { orgId: string; owner: string; membershipId: string; principal: string }[] = [];
    const keys: { orgId: string; owner: string; keyId: string; raw: string }[] = [];
    const duplicates: { slug: string; originalId: string; status: number; code: unknown; on: string }[] = [];
    const unanswered = { a: 0, b: 0 };
    const unexpected: string[] = [];
    let dying = false;
    let killedAfter = 0;
    let answered = 0;
    const inFlightSlug = `md-${KILL_AT}-in-flight`;
    let inFlightAnswer: JsonResponse | undefined;

    /**
     * A create that A is surely in the middle of when it dies: the test holds the slug's
     * transaction lock, so A's transaction waits on it (seen in pg_locks) until A is SIGKILLed.
     */
    const createOnDyingA = async (): Promise<JsonResponse | undefined> => {
      const key = advisoryLockKey(`org-slug:${inFlightSlug}`);
      const holder = await db.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT pg_advisory_xact_lock($1::bigint)', [key]);
        const answer = tryRequest(a.url, 'POST', '/v1/organizations', {
          headers: asPrincipal(owners[0]),
          body: { slug: inFlightSlug },
        });
        await waitFor(async () => (await db.query(waitingOn, [key])).rows.length > 0, {
          intervalMs: 5,
          what: "A's create to wait for the slug's lock",
        });
        await sigkill(a);
        await holder.query('ROLLBACK');
        return await answer;
      } finally {
        holder.release();
      }
    };

    const started = Date.now();
    await inFlight(8, TOTAL, async (i) => {
      if (i === KILL_AT) {
        // From here on every write goes to B; A dies under this one and whatever else it is answering.
        dying = true;
        killedAfter = answered;
        inFlightAnswer = await createOnDyingA();
        if (inFlightAnswer === undefined) unanswered.a++;
        else answered++;
        return;
      }
      const onA = !dying && i % 2 === 0;
      const d = onA ? a : b;
      const owner = owners[i % owners.length];
      const pick = <T>(list: T[]): T => list[(i * 7919) % list.length];

      // One write in twenty re-uses a slug an acknowledged create holds: it must be refused.
      if (i % 20 === 19 && orgs.length > 0) {
        const original = pick(orgs);
        const res = await tryRequest(d.url, 'POST', '/v1/organizations', {
          headers: asPrincipal(owner),
          body: { slug: original.slug },
        });
        if (res === undefined) unanswered[onA ? 'a' : 'b']++;
        else {
          answered++;
          duplicates.push({
            slug: original.slug,
            originalId: original.id,
            status: res.status,
            code: res.body?.error?.code,
            on: onA ? 'A' : 'B',
          });
        }
        return;
      }
      const kind = orgs.length < 8 ? 0 : i % 3;
      if (kind === 0) {
        const slug = `md-${i}-${randomUUID().slice(0, 8)}`;
        const res = await tryRequest(d.url, 'POST', '/v1/organizations', { headers: asPrincipal(owner), body: { slug } });
        if (res === undefined) unanswered[onA ? 'a' : 'b']++;
        else if (res.status === 201) orgs.push({ id: res.body.data.id, slug, owner });
        else unexpected.push(`create ${slug} on ${onA ? 'A' : 'B'}: ${res.status} ${JSON.stringify(res.body)}`);
        if (res !== undefined) answered++;
      } else if (kind === 1) {
        const org = pick(orgs);
        const principal = randomUUID();
        const res = await tryRequest(d.url, 'POST', `/v1/organizations/${org.id}/members`, {
          headers: asPrincipal(org.owner),
          body: { principal_id: principal, role: i % 2 === 0 ? 'member' : 'viewer' },
        });
        if (res === undefined) unanswered[onA ? 'a' : 'b']++;
        else if (res.status === 201) members.push({ orgId: org.id, owner: org.owner, membershipId: res.body.data.id, principal });
        else unexpected.push(`member add on ${onA ? 'A' : 'B'}: ${res.status} ${JSON.stringify(res.body)}`);
        if (res !== undefined) answered++;
      } else {
        const org = pick(orgs);
        const res = await tryRequest(d.url, 'POST', '/v1/api-keys', {
          headers: asPrincipal(org.owner),
          body: { name: `k${i}`, organization_id: org.id },
        });
        if (res === undefined) unanswered[onA ? 'a' : 'b']++;
        else if (res.status === 201)
          keys.push({ orgId: org.id, owner: org.owner, keyId: res.body.data.id, raw: res.body.data.raw_key });
        else unexpected.push(`key create on ${onA ? 'A' : 'B'}: ${res.status} ${JSON.stringify(res.body)}`);
        if (res !== undefined) answered++;
      }
    });
    const writesMs = Date.now() - started;

    t.equal(a.child.signalCode, 'SIGKILL', 'daemon A was SIGKILLed');
    t.ok(killedAfter >= KILL_AT - 8 && killedAfter <= KILL_AT, `halfway: after ${killedAfter} answered writes`);
    t.equal(inFlightAnswer, undefined, 'the create A was in the middle of got no answer');
    t.equal(unanswered.b, 0, 'B answered every write sent to it');
    t.ok(unanswered.a >= 1 && unanswered.a <= 8, `only writes in flight on A when it died went unanswered (${unanswered.a})`);
    t.same(unexpected, [], 'every other answer was a 201');
    t.equal(answered + unanswered.a + unanswered.b, TOTAL, 'every write was tried once');
    t.ok(duplicates.length >= 40, `about 5% re-used a slug (${duplicates.length})`);
    t.same(
      duplicates.filter((x) => x.status !== 409 || x.code !== 'conflict'),
      [],
      'every re-used slug was refused with 409 conflict, on either daemon',
    );
    t.ok(
      orgs.length > 250 && members.length > 200 && keys.length > 200,
      `acknowledged: ${orgs.length} organizations, ${members.length} members, ${keys.length} keys`,
    );

    // Through B: every acknowledged write is there, as its caller sees it.
    const readStarted = Date.now();
    const missing: string[] = [];
    await inFlight(8, orgs.length, async (n) => {
      const org = orgs[n];
      const res = await request(b.url, 'GET', `/v1/organizations/${org.id}`, { headers: asPrincipal(org.owner) });
      if (res.status !== 200 || res.body.data.slug !== org.slug) missing.push(`organization ${org.slug}: ${res.status}`);
    });
    const byOrg = new Map<string, typeof members>();
    for (const m of members) byOrg.set(m.orgId, [...(byOrg.get(m.orgId) ?? []), m]);
    const orgsWithMembers = [...byOrg.entries()];
    await inFlight(8, orgsWithMembers.length, async (n) => {
      const [orgId, added] = orgsWithMembers[n];
      const seen = new Map<string, string>();
      let cursor: string | null = null;
      do {
        const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const res = await request(b.url, 'GET', `/v1/organizations/${orgId}/members?limit=200${query}`, {
          headers: asPrincipal(added[0].owner),
        });
        if (res.status !== 200) {
          missing.push(`members of ${orgId}: ${res.status}`);
          return;
        }
        for (const m of res.body.data as { id: string; principal_id: string }[]) seen.set(m.id, m.principal_id);
        cursor = res.body.meta.next_cursor;
      } while (cursor !== null);
      for (const m of added) if (seen.get(m.membershipId) !== m.principal) missing.push(`membership ${m.membershipId}`);
    });
    await inFlight(8, keys.length, async (n) => {
      const key = keys[n];
      const res = await request(b.url, 'GET', `/v1/api-keys/${key.keyId}`, { headers: asPrincipal(key.owner) });
      if (res.status !== 200 || res.body.data.revoked_at !== null) missing.push(`api key ${key.keyId}: ${res.status}`);
    });
    // A sample of the keys also authenticates on B.
    for (const key of keys.filter((_, n) => n % 25 === 0)) {
      const res = await request(b.url, 'GET', `/v1/organizations/${key.orgId}`, { headers: bearer(key.raw) });
      if (res.status !== 200) missing.push(`api key ${key.keyId} does not authenticate: ${res.status}`);
    }
    t.same(missing, [], 'B answers every acknowledged organization, membership and key');

    // And in the database itself.
    const orgRows = (
      await db.query<{ id: string; slug: string }>(`SELECT data->>'id' AS id, data->>'slug' AS slug FROM organizations`)
    ).rows;
    const slugOf = new Map(orgRows.map((r) => [r.id, r.slug]));
    t.same(
      orgs.filter((o) => slugOf.get(o.id) !== o.slug).map((o) => o.slug),
      [],
      'every acknowledged organization is a row with its slug',
    );
    const doubled = await db.query(
      `SELECT data->>'slug' AS slug, count(*)::int AS n FROM organizations GROUP BY 1 HAVING count(*) > 1`,
    );
    t.same(doubled.rows, [], 'no slug is held by two organizations');
    t.same(
      duplicates
        .filter(
          (x) =>
            orgRows
              .filter((r) => r.slug === x.slug)
              .map((r) => r.id)
              .join() !== x.originalId,
        )
        .map((x) => x.slug),
      [],
      'each re-used slug is held by the organization that was acknowledged first, and only by it',
    );
    t.ok(orgRows.length >= orgs.length && orgRows.length <= orgs.length + unanswered.a, `${orgRows.length} organization rows`);
    t.notOk(
      orgRows.some((r) => r.slug === inFlightSlug),
      'the create A died in the middle of left nothing behind (it had not committed)',
    );
    const retried = await request(b.url, 'POST', '/v1/organizations', {
      headers: asPrincipal(owners[0]),
      body: { slug: inFlightSlug },
    });
    t.equal(retried.status, 201, 'and its slug is free: the client retries it on B');
    const ids = async (table: string) =>
      new Set((await db.query<{ id: string }>(`SELECT data->>'id' AS id FROM ${table}`)).rows.map((r) => r.id));
    const membershipIds = await ids('memberships');
    const keyIds = await ids('api_keys');
    t.same(
      members.filter((m) => !membershipIds.has(m.membershipId)),
      [],
      'every acknowledged membership is a row',
    );
    t.same(
      keys.filter((k) => !keyIds.has(k.keyId)).map((k) => k.keyId),
      [],
      'every acknowledged API key is a row',
    );
    t.comment(
      `writes: ${writesMs} ms (${answered} answered, ${unanswered.a} lost with A); checks: ${Date.now() - readStarted} ms`,
    );
  });

  t.test('a key revoked through one daemon is refused by the other on its next request', bounded, async (t) => {
    const { a, b } = await twoDaemons(t);
    const owner = randomUUID();
    const org = await createOrg(a.url, owner, 'revocation');
    let stale = 0;
    const ROUNDS = 20;
    for (let round = 1; round <= ROUNDS; round++) {
      const created = await request(a.url, 'POST', '/v1/api-keys', {
        headers: asPrincipal(owner),
        body: { name: `round ${round}`, organization_id: org.id },
      });
      t.equal(created.status, 201, `round ${round}: key created through A`);
      const raw: string = created.body.data.raw_key;
      const read = () => request(b.url, 'GET', `/v1/organizations/${org.id}`, { headers: bearer(raw) });
      t.equal((await read()).status, 200, `round ${round}: B accepts it`);
      t.equal((await read()).status, 200, `round ${round}: B accepts it again (now from its cache)`);
      const revoked = await request(a.url, 'DELETE', `/v1/api-keys/${created.body.data.id}`, { headers: asPrincipal(owner) });
      t.equal(revoked.status, 200, `round ${round}: revoked through A`);
      const next = await read();
      // A answers the revocation only once B has acknowledged dropping the key from its cache
      // (LISTEN/NOTIFY, then an acknowledgement back): B's very next request is refused.
      t.equal(next.status, 401, `round ${round}: B's very next request with it is 401`);
      if (next.status !== 401) stale++;
      const refused = await read();
      t.equal(refused.status, 401, `round ${round}: B refuses it`);
      t.equal(refused.body?.error?.code, 'unauthenticated');
      t.equal(
        (await request(a.url, 'GET', `/v1/organizations/${org.id}`, { headers: bearer(raw) })).status,
        401,
        `round ${round}: A refuses it too`,
      );
    }
    t.equal(stale, 0, `none of ${ROUNDS} first requests after a revocation was answered from a stale cache`);
  });

  t.test(
    "50 concurrent invitation creates spread over both: exactly the organization's limit succeeds, the rest are 429",
    bounded,
    async (t) => {
      const { a, b } = await twoDaemons(t);
      const owner = randomUUID();
      const org = await createOrg(a.url, owner, 'limited');
      const LIMIT = 7;
      const before = await request(a.url, 'GET', `/v1/organizations/${org.id}/settings`, { headers: asPrincipal(owner) });
      t.equal(before.body.data.max_pending_invitations, 100, 'A has read the default limit');
      const settings = await request(b.url, 'PUT', `/v1/organizations/${org.id}/settings`, {
        headers: asPrincipal(owner),
        body: { max_pending_invitations: LIMIT, max_invitations_per_hour: 1000 },
      });
      t.equal(settings.status, 200, 'limit set through B');
      t.equal(settings.body.data.max_pending_invitations, LIMIT);

      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          request(i % 2 === 0 ? a.url : b.url, 'POST', '/v1/invitations', {
            headers: asPrincipal(owner),
            body: { organization_id: org.id, email: `race${i}@example.com`, role: 'member' },
          }),
        ),
      );
      const created = answers.filter((r) => r.status === 201);
      const limited = answers.filter((r) => r.status === 429);
      t.equal(created.length, LIMIT, `exactly ${LIMIT} were created`);
      t.equal(limited.length, 50 - LIMIT, 'every other one was refused with 429');
      t.same(
        limited.filter((r) => r.body.error.code !== 'rate_limited' || r.body.error.details.limit !== 'max_pending_invitations'),
        [],
        'each refusal names the pending-invitation limit',
      );
      t.ok(
        limited.every((r) => Number(r.headers.get('retry-after')) > 0),
        'with Retry-After',
      );
      for (const d of [a, b]) {
        const pending = await request(d.url, 'GET', `/v1/invitations?organization_id=${org.id}&status=pending&limit=200`, {
          headers: asPrincipal(owner),
        });
        t.equal(pending.body.data.length, LIMIT, `${d === a ? 'A' : 'B'} lists exactly ${LIMIT} pending`);
      }
    },
  );

  t.test(
    '200 invitation mails queued, one daemon SIGKILLed mid-send: every mail is sent at least once and the email fake sees each idempotency key at most twice',
    bounded,
    async (t) => {
      const fake = await fakeProvider(t);
      // A slow provider, so sends are in flight when A dies; well under the send timeout (the shortest
      // retry delay, 2 s), whose triple is the lease B waits out before it takes A's mail over.
      fake.delayMs = 150;
      const { a, b, db } = await twoDaemons(t, (name) =>
        providerEnv(fake, {
          SERVICE_OUTBOX_RETRY_DELAYS_MS: '2000',
          // The sender address tells the fake which daemon sent a mail.
          SERVICE_EMAIL_FROM: `Switchyard <daemon-${name}@switchyard.localhost>`,
        }),
      );
      const fromA = (r: (typeof fake.requests)[number]) => String((r.body as { from?: string }).from).includes('daemon-a@');
      const owner = randomUUID();
      const org = await createOrg(b.url, owner, 'mailing');
      const settings = await request(b.url, 'PUT', `/v1/organizations/${org.id}/settings`, {
        headers: asPrincipal(owner),
        body: { max_pending_invitations: 1000, max_invitations_per_hour: 1000 },
      });
      t.equal(settings.status, 200);

      const COUNT = 200;
      const emails = Array.from({ length: COUNT }, (_, i) => `mail${i}@example.com`);
      const invite = (d: ChildDaemon, email: string) =>
        tryRequest(d.url, 'POST', '/v1/invitations', {
          headers: asPrincipal(owner),
          body: { organization_id: org.id, email, role: 'member' },
        });

      // A dies once some mail is sent, while at least one of its own sends is in flight.
      let inFlightOnA: string[] | undefined;
      let sentAtKill = 0;
      const killer = (async () => {
        await waitFor(() => fake.sent.length >= 30 && fake.requests.some((r) => r.status === null && fromA(r)), {
          intervalMs: 2,
          what: 'A to be sending, with some mail sent',
        });
        inFlightOnA = fake.requests.filter((r) => r.status === null && fromA(r)).map((r) => r.idempotencyKey!);
        sentAtKill = fake.sent.length;
        await sigkill(a);
      })();
      // Awaited below, after the creates; a failure meanwhile is not an unhandled rejection.
      killer.catch(() => undefined);

      const started = Date.now();
      const retried: { email: string; status: number }[] = [];
      await inFlight(8, COUNT, async (i) => {
        const onA = inFlightOnA === undefined && i % 2 === 0;
        const res = await invite(onA ? a : b, emails[i]);
        if (res?.status === 201) return;
        if (res !== undefined) throw new Error(`invite ${emails[i]}: ${res.status} ${JSON.stringify(res.body)}`);
        // No answer (A died): retried on B; 409 when the lost request had committed.
        const again = await invite(b, emails[i]);
        retried.push({ email: emails[i], status: again?.status ?? 0 });
      });
      const createdMs = Date.now() - started;
      await killer;
      t.ok(
        sentAtKill > 0 && sentAtKill < COUNT,
        `A was killed mid-send: ${sentAtKill} of ${COUNT} sent, ${inFlightOnA!.length} in flight on A`,
      );
      t.same(
        retried.filter((r) => r.status !== 201 && !(r.status === 409)),
        [],
        `creates lost with A were retried on B: 201, or 409 when they had committed (${retried.length})`,
      );

      const pendingInvitations = await request(
        b.url,
        'GET',
        `/v1/invitations?organization_id=${org.id}&status=pending&limit=200`,
        {
          headers: asPrincipal(owner),
        },
      );
      t.same(
        (pendingInvitations.body.data as { email: string }[]).map((x) => x.email).sort(),
        [...emails].sort(),
        'every address has one pending invitation',
      );
      const outboxIds = (pendingInvitations.body.data as { outbox_entry_id: string }[]).map((x) => x.outbox_entry_id);

      const statuses = async () =>
        (
          await db.query<{ status: string; n: number }>(
            `SELECT data->>'status' AS status, count(*)::int AS n FROM email_outbox GROUP BY 1`,
          )
        ).rows;
      await waitFor(async () => (await statuses()).some((r) => r.status === 'sent' && r.n === COUNT), {
        intervalMs: 100,
        what: 'every outbox entry to be sent',
      });
      const sentMs = Date.now() - started;
      t.same(await statuses(), [{ status: 'sent', n: COUNT }], 'every outbox entry is sent');

      const deliveredTo = new Set(fake.sent.flatMap((m) => m.to));
      t.same(
        emails.filter((e) => !deliveredTo.has(e)),
        [],
        'every invitation mail reached the provider',
      );
      const seen = new Map<string, number>();
      for (const r of fake.requests) seen.set(r.idempotencyKey!, (seen.get(r.idempotencyKey!) ?? 0) + 1);
      t.same([...seen.keys()].sort(), [...outboxIds].sort(), "the idempotency keys are the invitations' outbox entries");
      t.same(
        [...seen].filter(([, n]) => n > 2),
        [],
        'no idempotency key reached the provider more than twice',
      );
      t.same(
        inFlightOnA!.filter((key) => !fake.requests.some((r) => r.idempotencyKey === key && !fromA(r) && r.status === 200)),
        [],
        'B sent again, under the same key, every mail A had in flight when it died',
      );
      const interrupted = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM email_outbox WHERE data->'attempts' @> '[{"interrupted": true}]'`,
      );
      t.ok(interrupted.rows[0].n >= inFlightOnA!.length, `the interrupted sends are on record (${interrupted.rows[0].n})`);
      t.comment(
        `created in ${createdMs} ms; all sent after ${sentMs} ms; ${fake.requests.length} provider requests for ${COUNT} mails`,
      );
    },
  );
}
