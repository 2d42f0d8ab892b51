// Row (15) of `npm run bench`: the tenant portal's pages with 10,000 deliveries in the organization,
// in-process, on LevelDB and on PostgreSQL (`databaseUrl`). One webhook to a local receiver that answers 200; 10,000 events appended
// in batches fan out to 10,000 deliveries; then each page is fetched one request at a time with a
// portal session's cookie: its median and 95th percentile answer time. The deliveries page reads the
// organization's delivery list (one range read a page, whatever the filters). See docs/benchmarks.md.
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config/load.js';
import { operator } from '../src/domain/identity/caller.js';
import { startDaemon, type Daemon } from '../src/main.js';

const DELIVERIES = 10_000;
const BATCH = 500;
const REQUESTS = 60;
const WARMUP = 10;

export interface PortalPageFigures {
  /** LevelDB or PostgreSQL. */
  engine: string;
  deliveries: number;
  pages: { name: string; medianMs: number; p95Ms: number }[];
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** The pages' answer times on a fresh daemon: on LevelDB, or on PostgreSQL when `databaseUrl` names an empty database. */
export async function measurePortalPages(progress: (message: string) => void, databaseUrl?: string): Promise<PortalPageFigures> {
  const engine = databaseUrl === undefined ? 'LevelDB' : 'PostgreSQL';
  const dir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-bench-portal-'));
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  let daemon: Daemon | undefined;
  try {
    daemon = await startDaemon(
      loadConfig({
        env: {
          SERVICE_DATA_DIR: dir,
          SERVICE_HTTP_ADDR: '127.0.0.1:0',
          SERVICE_LOG_LEVEL: 'silent',
          SERVICE_WEBHOOK_ALLOW_PRIVATE: '1',
          ...(databaseUrl === undefined ? {} : { SERVICE_DATABASE_URL: databaseUrl }),
        },
      }),
    );
    const { services, storage, eventLog } = daemon;
    const { organization: org } = await services.organizations.createOrganization(operator, { slug: 'bench-portal' });
    const hook = await services.webhooks.createWebhook(operator, org.id, {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      event_filter: ['job.completed'],
    });
    progress(`portal, ${engine}: appending ${DELIVERIES} events for one webhook`);
    for (let done = 0; done < DELIVERIES; done += BATCH) {
      await storage.transaction({}, (tx) => {
        for (let i = 0; i < BATCH; i++)
          eventLog.append(tx, { kind: 'job.completed', organization_id: org.id, payload: { n: done + i, status: 'completed' } });
        return Promise.resolve();
      });
    }
    const count = async () => {
      let n = 0;
      let cursor: string | null | undefined;
      do {
        const page = await services.webhooks.listDeliveries(operator, hook.id, { limit: 200, cursor });
        n += page.items.filter((d) => d.status !== 'pending').length;
        cursor = page.nextCursor;
      } while (cursor !== null);
      return n;
    };
    const deadline = Date.now() + 600_000;
    while ((await count()) < DELIVERIES) {
      if (Date.now() > deadline) throw new Error('the deliveries were not all made within 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    progress(`portal, ${engine}: deliveries made; measuring pages`);
    const minted = await services.portal.createSession(operator, org.id, { capabilities: ['manage_webhooks'] });
    const entered = await fetch(minted.url, { redirect: 'manual' });
    const cookie = (entered.headers.get('set-cookie') ?? '').split(';')[0];
    const pages: [string, string][] = [
      ['webhooks', '/portal/webhooks'],
      ['deliveries, organization (newest 50)', '/portal/deliveries'],
      ['deliveries, one webhook (newest 50)', `/portal/deliveries?webhook=${hook.id}`],
      ['deliveries, status failed (none)', '/portal/deliveries?status=failed'],
      [
        'deliveries, status delivered before 2000 (none)',
        `/portal/deliveries?webhook=${hook.id}&status=delivered&until=2000-01-01T00:00`,
      ],
      ['usage', '/portal/usage'],
      ['runs and jobs', '/portal/runs'],
      ['event catalog', '/portal/events'],
    ];
    const figures: PortalPageFigures = { engine, deliveries: DELIVERIES, pages: [] };
    for (const [name, p] of pages) {
      const times: number[] = [];
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const started = performance.now();
        const res = await fetch(daemon.url + p, { headers: { cookie } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
        if (i >= WARMUP) times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      figures.pages.push({ name, medianMs: quantile(times, 0.5), p95Ms: quantile(times, 0.95) });
    }
    return figures;
  } finally {
    await daemon?.stop();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  }
}
