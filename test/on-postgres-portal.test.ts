// The tenant portal's sessions and pages on PostgreSQL (test/support/on-postgres.ts).
import { runOnPostgres } from './support/on-postgres.js';

await runOnPostgres(['portal-sessions'], 'portal tests');
