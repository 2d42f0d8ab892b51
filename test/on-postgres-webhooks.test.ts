// Webhooks, audit, assets, pagination and jobs on PostgreSQL (test/support/on-postgres.ts).
import { runOnPostgres } from './support/on-postgres.js';

await runOnPostgres(
  [
    'webhooks',
    'webhooks-platform',
    'webhooks-organization-list',
    'backup-restore-webhooks',
    'audit-log',
    'assets',
    'pagination',
    'jobs',
    'jobs-output',
    'jobs-purge',
    'workflows-output',
  ],
  'webhook, audit, asset, pagination and job tests',
);
