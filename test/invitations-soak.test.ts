// Issue 33: the daemon's private memory holds level while invitations are created. A CI-sized soak
// (the bench's row (14) is the long one): a warm-up, then thousands of creates into organizations
// filling towards 1,000 pending, and the daemon's RssAnon (Linux) may grow by a bounded amount. The
// daemon is a child process, so what is measured is its memory alone, not the test's client.
// Each create once read up to 2,000 keys (pending count, hourly log), and classic-level kept native room
// for every read until V8 collected its iterator: 128 KB and more per create, hundreds of MiB here.

import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import t from 'tap';
import { asPrincipal, createOrganizationAs, request, spawnDaemon } from './helpers.js';

const ORGS = 5;
const WARM_UP_PER_ORG = 100;
const MEASURED_PER_ORG = 600;
const IN_FLIGHT = 50;
/** Each organization's creates in all: its hourly limit, so the next one is refused. */
const PER_ORG = WARM_UP_PER_ORG + MEASURED_PER_ORG;
/**
 * Growth allowed over the measured creates (3,000): LevelDB's own buffers settling (memtables, block
 * cache) and V8's generations fit in it; a leak of 15 KB a create does not (it was 128 KB and more).
 */
const GROWTH_BOUND_MB = 45;

function anonMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^RssAnon:\s+(\d+)\s+kB/m.exec(status)?.[1]) / 1024;
}

t.test(
  'RssAnon holds level over thousands of invitation creates',
  { skip: !existsSync('/proc/self/status') && 'no /proc' },
  async (t) => {
    const d = await spawnDaemon(t);
    const pid = d.child.pid!;
    const orgs = await Promise.all(
      Array.from({ length: ORGS }, async () => {
        const owner = randomUUID();
        const org = await createOrganizationAs(d.url, asPrincipal(owner), `soak-${randomUUID().slice(0, 8)}`);
        const put = await request(d.url, 'PUT', `/v1/organizations/${org.id}/settings`, {
          headers: asPrincipal(owner),
          body: { max_pending_invitations: 10_000, max_invitations_per_hour: PER_ORG },
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
    const before = anonMb(pid);
    await createAll(MEASURED_PER_ORG);
    const after = anonMb(pid);
    t.ok(
      after - before <= GROWTH_BOUND_MB,
      `RssAnon ${before.toFixed(1)} -> ${after.toFixed(1)} MiB over ${MEASURED_PER_ORG * ORGS} creates (bound ${GROWTH_BOUND_MB} MiB)`,
    );
    // The hourly count kept with the writes agrees with the log: PER_ORG sends fill the hour.
    const full = await request(d.url, 'POST', '/v1/invitations', {
      headers: asPrincipal(orgs[0].owner),
      body: { organization_id: orgs[0].id, email: 'one-too-many@example.com', role: 'member' },
    });
    t.equal(full.status, 429, `the hour is full: ${PER_ORG} sends`);
    t.equal(full.body.error.details.limit, 'max_invitations_per_hour');
  },
);
