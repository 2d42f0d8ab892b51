// Contract 11 and issue 10: every feature behaves the same on PostgreSQL. The identity, invitation,
// permission, tenant-isolation and webhook test files run again here, unchanged, with their daemons on a
// throwaway PostgreSQL (each daemon on a fresh database: test/helpers.ts withTestEngine). Each file
// runs in one child TAP process whose tests show up as subtests, so a failure names the test and assertion.
import path from 'node:path';
import t from 'tap';
import { repoRoot } from './helpers.js';
import { findPostgres, startPostgres } from './support/postgres.js';

/** The files that run on both engines: identity, permissions, invitations, tenant isolation, webhooks, providers, backup, audit, assets. */
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
  'providers-routing',
  'backup-restore',
  'audit-log',
  'assets',
  'workflows',
  'workflows-output',
  'jobs',
  'workflow-schedules',
];

const found = findPostgres();
if ('missing' in found) {
  t.plan(0, `missing ${found.missing}`);
} else {
  const cluster = await startPostgres(t);
  // One child runs every file (one TypeScript start-up, not one per file), with the loader flags tap
  // gave this process (TypeScript, coverage), so it runs as tap would; its tests show up here.
  void t.spawn(
    process.execPath,
    [...process.execArgv, path.join(repoRoot, 'test', 'fixtures', 'run-files.ts')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        SWITCHYARD_TEST_POSTGRES: cluster.url,
        SWITCHYARD_TEST_FILES: files.map((name) => path.join(repoRoot, 'test', `${name}.test.ts`)).join(','),
      },
    },
    'identity, invitation, permission, tenant and webhook tests on PostgreSQL',
  );
}
