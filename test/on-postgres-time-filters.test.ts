// Time filters on PostgreSQL (test/support/on-postgres.ts).
import { runOnPostgres } from './support/on-postgres.js';

await runOnPostgres(['time-filters'], 'time filter tests');
