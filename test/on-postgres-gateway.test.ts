// The OpenAI- and Anthropic-compatible gateway on PostgreSQL (test/support/on-postgres.ts): its usage
// ledger is the provider layer's, stored by the shared engine.
import { runOnPostgres } from './support/on-postgres.js';

await runOnPostgres(['gateway-openai'], 'gateway tests');
