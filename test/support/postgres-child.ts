// Run by postgres-harness.test.ts: starts a cluster, prints where it is, then waits to be killed.
import { launchPostgres } from './postgres.js';

const cluster = await launchPostgres();
process.stdout.write(JSON.stringify({ url: cluster.url, port: cluster.port, dir: cluster.dir }) + '\n');
setInterval(() => undefined, 60_000);
