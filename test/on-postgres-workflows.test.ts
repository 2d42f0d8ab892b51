// Workflows, schedules and backup on PostgreSQL (test/support/on-postgres.ts).
import { runOnPostgres } from './support/on-postgres.js';

await runOnPostgres(
  ['workflow-schedules', 'workflows', 'workflows-streams', 'workflows-wait-expiry', 'backup-restore'],
  'workflow, schedule and backup tests',
);
