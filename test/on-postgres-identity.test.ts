// Identity, permissions, tenant isolation, invitations, membership events and providers on PostgreSQL
// (test/support/on-postgres.ts).
import { runOnPostgres } from './support/on-postgres.js';

await runOnPostgres(
  [
    'organizations',
    'organization-display-name',
    'auth-api-keys',
    'auth-jwt',
    'auth-jwt-subjects',
    'permissions-matrix',
    'grants-members',
    'security-membership',
    'tenant-isolation',
    'invitations-lifecycle',
    'invitations-limits',
    'invitations-accept-confirm',
    'member-events',
    'providers-routing',
  ],
  'identity, permission, tenant, invitation and provider tests',
);
