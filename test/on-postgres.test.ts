// Contract 11 and issue 10: every feature behaves the same on PostgreSQL. The identity, invitation,
// permission, tenant-isolation and webhook test files run again here, unchanged, with their daemons on a
// throwaway PostgreSQL (each daemon on a fresh database: test/helpers.ts withTestEngine). Each file
// runs as a child TAP process and shows up as a subtest, so a failure names the file and assertion.
import path from 'node:path';
import t from 'tap';
import { repoRoot } from './helpers.js';
import { findPostgres, startPostgres } from './support/postgres.js';

/** The files that run on both engines: identity, permissions, invitations, tenant isolation, webhooks. */
const files = [
  'organizations',
  'auth-api-keys',
  'auth-jwt',
  'permissions-matrix',
  'security-membership',
  'tenant-isolation',
  'invitations-lifecycle',
  'invitations-limits',
  'invitations-accept-confirm',
  'pagination',
  'webhooks',
];

const found = findPostgres();
if ('missing' in found) {
  t.plan(0, `missing ${found.missing}`);
} else {
  const cluster = await startPostgres(t);
  for (const name of files) {
    const file = path.join(repoRoot, 'test', `${name}.test.ts`);
    // The same loader flags tap gave this process (TypeScript, coverage), so the child runs as tap would.
    void t.spawn(
      process.execPath,
      [...process.execArgv, file],
      {
        cwd: repoRoot,
        env: { ...process.env, SWITCHYARD_TEST_POSTGRES: cluster.url },
      },
      `${name} on PostgreSQL`,
    );
  }
}
