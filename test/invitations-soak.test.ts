// Issue 33: the daemon's private memory holds level while invitations are created. A CI-sized soak
// (the bench's row (14) is the long one): a warm-up, then thousands of creates into organizations
// filling towards 1,000 pending, and the process's RssAnon (Linux) may grow by a bounded amount.
// Each create read up to 2,000 keys (pending count, hourly log), and classic-level kept native room
// for every read until V8 collected its iterator: 200 KB and more per create, hundreds of MiB here.

import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import t from 'tap';
import { asPrincipal, createOrganizationAs, request, startTestDaemon } from './helpers.js';

const ORGS = 5;
const WARM_UP_PER_ORG = 100;
const MEASURED_PER_ORG = 300;
const IN_FLIGHT = 50;
/**
 * Growth allowed over the measured creates (1,500): LevelDB's own buffers settling (memtable, block
 * cache) and V8's young generation fit in it; a leak of 27 KB a create does not (it was 128 KB and more).
 */
const GROWTH_BOUND_MB = 40;

function anonMb(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  return Number(/^RssAnon:\s+(\d+)\s+kB/m.exec(status)?.[1]) / 1024;
}

t.test(
  'RssAnon holds level over thousands of invitation creates',
  {
    skip: !existsSync('/proc/self/status') && 'no /proc',
    // Measured 2026-11-28 on a loaded machine: +47 MiB over 1,500 creates (about 31 KB each) after
    // the fixes of issue 33 (before them: 128 KB and more a create). The rest is not found yet.
    todo: 'issue 33 item 1: RssAnon still grows about 31 KB a create over HTTP',
  },
  async (t) => {
    const d = await startTestDaemon(t);
    const orgs = await Promise.all(
      Array.from({ length: ORGS }, async () => {
        const owner = randomUUID();
        const org = await createOrganizationAs(d.url, asPrincipal(owner), `soak-${randomUUID().slice(0, 8)}`);
        const put = await request(d.url, 'PUT', `/v1/organizations/${org.id}/settings`, {
          headers: asPrincipal(owner),
          body: { max_pending_invitations: 10_000, max_invitations_per_hour: 1_000 },
        });
        t.equal(put.status, 200);
        return { id: org.id, owner };
      }),
    );
    let sent = 0;
    const createAll = async (perOrg: number): Promise<void> => {
      const total = perOrg * ORGS;
      let next = 0;
      const statuses = new Map<number, number>();
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          for (let n = next++; n < total; n = next++) {
            const org = orgs[n % ORGS];
            const res = await request(d.url, 'POST', '/v1/invitations', {
              headers: asPrincipal(org.owner),
              body: { organization_id: org.id, email: `soak-${sent++}@example.com`, role: 'member' },
            });
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          }
        }),
      );
      t.same(Object.fromEntries(statuses), { 201: total }, `${total} invitations created`);
    };

    await createAll(WARM_UP_PER_ORG);
    const before = anonMb();
    await createAll(MEASURED_PER_ORG);
    const after = anonMb();
    t.ok(
      after - before <= GROWTH_BOUND_MB,
      `RssAnon ${before.toFixed(1)} -> ${after.toFixed(1)} MiB over ${MEASURED_PER_ORG * ORGS} creates (bound ${GROWTH_BOUND_MB} MiB)`,
    );
    // The hourly count kept with the writes agrees with the log: 1,000 sends fill the hour.
    const full = await request(d.url, 'POST', '/v1/invitations', {
      headers: asPrincipal(orgs[0].owner),
      body: { organization_id: orgs[0].id, email: 'one-too-many@example.com', role: 'member' },
    });
    t.equal(full.status, 429, 'the hour is full: 1,000 sends');
    t.equal(full.body.error.details.limit, 'max_invitations_per_hour');
  },
);
