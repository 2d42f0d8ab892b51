// Numbered SQL migrations of the PostgreSQL engine, applied in order at start under an advisory lock
// (two daemons starting together migrate once). Append only: a released migration never changes.
//
// Layout: one table per collection of storage/keyspace.ts. `data` is the record (JSONB); each index
// is a real column holding the index key (value, sort and id joined by \x00, the same bytes the
// LevelDB engine keys its index by), as bytea so that order is byte order on both engines. A unique
// index is a UNIQUE constraint checked at commit (DEFERRABLE INITIALLY DEFERRED: a transaction may
// move a value from one record to another in any order; a second holder is `conflict`); `meta` holds generated secrets, consumer
// positions and the last id of each append-ordered table (the row its appenders lock).

import type pg from 'pg';
import { NewerSchemaError } from '../errors.js';
import { defaultMigrationContext, type MigrationContext } from '../migration-context.js';

export interface SqlMigration {
  version: number;
  name: string;
  sql: string;
}

export const sqlMigrations: SqlMigration[] = [
  {
    version: 1,
    name: 'initial layout: identity, settings, invitations, email outbox, events, meta',
    sql: `
CREATE TABLE meta (
  key text PRIMARY KEY,
  value jsonb NOT NULL
);
CREATE TABLE events (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_organization bytea,
  ix_kind bytea,
  ix_organization_kind bytea
);
CREATE INDEX events__organization ON events (ix_organization) WHERE ix_organization IS NOT NULL;
CREATE INDEX events__kind ON events (ix_kind) WHERE ix_kind IS NOT NULL;
CREATE INDEX events__organization_kind ON events (ix_organization_kind) WHERE ix_organization_kind IS NOT NULL;
CREATE TABLE principals (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_email bytea
);
ALTER TABLE principals ADD CONSTRAINT principals__email UNIQUE (ix_email) DEFERRABLE INITIALLY DEFERRED;
CREATE TABLE organizations (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_slug bytea
);
ALTER TABLE organizations ADD CONSTRAINT organizations__slug UNIQUE (ix_slug) DEFERRABLE INITIALLY DEFERRED;
CREATE TABLE teams (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_organization bytea
);
CREATE INDEX teams__organization ON teams (ix_organization) WHERE ix_organization IS NOT NULL;
CREATE TABLE memberships (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_principal bytea,
  ix_organization bytea,
  ix_scope bytea,
  ix_team bytea,
  ix_owner bytea
);
CREATE INDEX memberships__principal ON memberships (ix_principal) WHERE ix_principal IS NOT NULL;
CREATE INDEX memberships__organization ON memberships (ix_organization) WHERE ix_organization IS NOT NULL;
ALTER TABLE memberships ADD CONSTRAINT memberships__scope UNIQUE (ix_scope) DEFERRABLE INITIALLY DEFERRED;
CREATE INDEX memberships__team ON memberships (ix_team) WHERE ix_team IS NOT NULL;
CREATE INDEX memberships__owner ON memberships (ix_owner) WHERE ix_owner IS NOT NULL;
CREATE TABLE grants (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_organization bytea,
  ix_principal bytea,
  ix_resource bytea,
  ix_principal_resource bytea
);
CREATE INDEX grants__organization ON grants (ix_organization) WHERE ix_organization IS NOT NULL;
CREATE INDEX grants__principal ON grants (ix_principal) WHERE ix_principal IS NOT NULL;
CREATE INDEX grants__resource ON grants (ix_resource) WHERE ix_resource IS NOT NULL;
CREATE INDEX grants__principal_resource ON grants (ix_principal_resource) WHERE ix_principal_resource IS NOT NULL;
CREATE TABLE api_keys (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_prefix bytea,
  ix_organization bytea,
  ix_organization_principal bytea
);
ALTER TABLE api_keys ADD CONSTRAINT api_keys__prefix UNIQUE (ix_prefix) DEFERRABLE INITIALLY DEFERRED;
CREATE INDEX api_keys__organization ON api_keys (ix_organization) WHERE ix_organization IS NOT NULL;
CREATE INDEX api_keys__organization_principal ON api_keys (ix_organization_principal) WHERE ix_organization_principal IS NOT NULL;
CREATE TABLE invitations (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_organization bytea,
  ix_org_status bytea,
  ix_org_pending bytea,
  ix_pending_email bytea,
  ix_expiry bytea
);
CREATE INDEX invitations__organization ON invitations (ix_organization) WHERE ix_organization IS NOT NULL;
CREATE INDEX invitations__org_status ON invitations (ix_org_status) WHERE ix_org_status IS NOT NULL;
CREATE INDEX invitations__org_pending ON invitations (ix_org_pending) WHERE ix_org_pending IS NOT NULL;
ALTER TABLE invitations ADD CONSTRAINT invitations__pending_email UNIQUE (ix_pending_email) DEFERRABLE INITIALLY DEFERRED;
CREATE INDEX invitations__expiry ON invitations (ix_expiry) WHERE ix_expiry IS NOT NULL;
CREATE TABLE invitation_sends (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_subject bytea
);
CREATE INDEX invitation_sends__subject ON invitation_sends (ix_subject) WHERE ix_subject IS NOT NULL;
CREATE TABLE invitation_recipient_sends (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_subject bytea
);
CREATE INDEX invitation_recipient_sends__subject ON invitation_recipient_sends (ix_subject) WHERE ix_subject IS NOT NULL;
CREATE TABLE organization_creates (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_subject bytea
);
CREATE INDEX organization_creates__subject ON organization_creates (ix_subject) WHERE ix_subject IS NOT NULL;
CREATE TABLE organization_settings (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL
);
CREATE TABLE email_outbox (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_queue bytea,
  ix_status bytea,
  ix_organization bytea,
  ix_created bytea,
  ix_organization_status bytea
);
CREATE INDEX email_outbox__queue ON email_outbox (ix_queue) WHERE ix_queue IS NOT NULL;
CREATE INDEX email_outbox__status ON email_outbox (ix_status) WHERE ix_status IS NOT NULL;
CREATE INDEX email_outbox__organization ON email_outbox (ix_organization) WHERE ix_organization IS NOT NULL;
CREATE INDEX email_outbox__created ON email_outbox (ix_created) WHERE ix_created IS NOT NULL;
CREATE INDEX email_outbox__organization_status ON email_outbox (ix_organization_status) WHERE ix_organization_status IS NOT NULL;
`,
  },
  {
    version: 2,
    name: 'webhooks and their deliveries',
    sql: `
CREATE TABLE webhooks (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_organization bytea
);
CREATE INDEX webhooks__organization ON webhooks (ix_organization) WHERE ix_organization IS NOT NULL;
CREATE TABLE webhook_deliveries (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_webhook bytea,
  ix_queue bytea,
  ix_held bytea,
  ix_webhook_failed bytea
);
CREATE INDEX webhook_deliveries__webhook ON webhook_deliveries (ix_webhook) WHERE ix_webhook IS NOT NULL;
CREATE INDEX webhook_deliveries__queue ON webhook_deliveries (ix_queue) WHERE ix_queue IS NOT NULL;
CREATE INDEX webhook_deliveries__held ON webhook_deliveries (ix_held) WHERE ix_held IS NOT NULL;
CREATE INDEX webhook_deliveries__webhook_failed ON webhook_deliveries (ix_webhook_failed) WHERE ix_webhook_failed IS NOT NULL;
`,
  },
  {
    version: 3,
    name: 'webhook deliveries due, per webhook, and the webhooks that have some',
    // The keys store/webhooks.ts builds, for the deliveries already waiting: pending, not held, not
    // leased; value, sort and id joined by a zero byte.
    sql: `
ALTER TABLE webhook_deliveries ADD COLUMN ix_webhook_due bytea, ADD COLUMN ix_due_webhooks bytea;
UPDATE webhook_deliveries SET
  ix_webhook_due = convert_to(data->>'webhook_id', 'UTF8') || '\\x00'::bytea
    || convert_to(coalesce(data->>'next_attempt_at', data->>'created_at'), 'UTF8') || '\\x00'::bytea || id,
  ix_due_webhooks = convert_to('due', 'UTF8') || '\\x00'::bytea || convert_to(data->>'webhook_id', 'UTF8') || '\\x00'::bytea || id
WHERE data->>'status' = 'pending' AND NOT (data->'held')::boolean AND data->>'lease_until' IS NULL;
CREATE INDEX webhook_deliveries__webhook_due ON webhook_deliveries (ix_webhook_due) WHERE ix_webhook_due IS NOT NULL;
CREATE INDEX webhook_deliveries__due_webhooks ON webhook_deliveries (ix_due_webhooks) WHERE ix_due_webhooks IS NOT NULL;
`,
  },
  {
    version: 4,
    name: 'provider routing settings and usage records',
    sql: `
CREATE TABLE provider_settings (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL
);
CREATE TABLE provider_usage (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_organization bytea
);
CREATE INDEX provider_usage__organization ON provider_usage (ix_organization) WHERE ix_organization IS NOT NULL;
`,
  },
  {
    version: 5,
    name: 'the audit log',
    sql: `
CREATE TABLE audit_log (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_organization bytea,
  ix_organization_actor bytea,
  ix_organization_action bytea,
  ix_organization_actor_action bytea
);
CREATE INDEX audit_log__organization ON audit_log (ix_organization) WHERE ix_organization IS NOT NULL;
CREATE INDEX audit_log__organization_actor ON audit_log (ix_organization_actor) WHERE ix_organization_actor IS NOT NULL;
CREATE INDEX audit_log__organization_action ON audit_log (ix_organization_action) WHERE ix_organization_action IS NOT NULL;
CREATE INDEX audit_log__organization_actor_action ON audit_log (ix_organization_actor_action) WHERE ix_organization_actor_action IS NOT NULL;
`,
  },
  {
    version: 6,
    name: 'every API key by organization, revoked ones too',
    // The key store/identity builds: organization, created_at and id joined by a zero byte.
    sql: `
ALTER TABLE api_keys ADD COLUMN ix_organization_all bytea;
UPDATE api_keys SET ix_organization_all = convert_to(data->>'organization_id', 'UTF8') || '\\x00'::bytea
  || convert_to(data->>'created_at', 'UTF8') || '\\x00'::bytea || id;
CREATE INDEX api_keys__organization_all ON api_keys (ix_organization_all) WHERE ix_organization_all IS NOT NULL;
`,
  },
  {
    version: 7,
    name: 'assets and their bytes',
    sql: `
CREATE TABLE assets (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_run bytea,
  ix_job bytea,
  ix_created bytea
);
CREATE INDEX assets__run ON assets (ix_run) WHERE ix_run IS NOT NULL;
CREATE INDEX assets__job ON assets (ix_job) WHERE ix_job IS NOT NULL;
CREATE INDEX assets__created ON assets (ix_created) WHERE ix_created IS NOT NULL;
CREATE TABLE asset_chunks (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL
);
`,
  },
  {
    version: 8,
    name: 'workflow definitions and runs',
    sql: `
CREATE TABLE workflow_definitions (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_organization bytea,
  ix_name bytea
);
CREATE INDEX workflow_definitions__organization ON workflow_definitions (ix_organization) WHERE ix_organization IS NOT NULL;
ALTER TABLE workflow_definitions ADD CONSTRAINT workflow_definitions__name UNIQUE (ix_name) DEFERRABLE INITIALLY DEFERRED;
CREATE TABLE workflow_runs (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_organization bytea,
  ix_workflow bytea,
  ix_organization_status bytea,
  ix_queue bytea,
  ix_queued_orgs bytea,
  ix_running bytea,
  ix_leases bytea
);
CREATE INDEX workflow_runs__organization ON workflow_runs (ix_organization) WHERE ix_organization IS NOT NULL;
CREATE INDEX workflow_runs__workflow ON workflow_runs (ix_workflow) WHERE ix_workflow IS NOT NULL;
CREATE INDEX workflow_runs__organization_status ON workflow_runs (ix_organization_status) WHERE ix_organization_status IS NOT NULL;
CREATE INDEX workflow_runs__queue ON workflow_runs (ix_queue) WHERE ix_queue IS NOT NULL;
CREATE INDEX workflow_runs__queued_orgs ON workflow_runs (ix_queued_orgs) WHERE ix_queued_orgs IS NOT NULL;
CREATE INDEX workflow_runs__running ON workflow_runs (ix_running) WHERE ix_running IS NOT NULL;
CREATE INDEX workflow_runs__leases ON workflow_runs (ix_leases) WHERE ix_leases IS NOT NULL;
`,
  },
  {
    version: 9,
    name: "a run's events",
    // The key events/store.ts builds: run id, event id and event id joined by a zero byte.
    sql: `
ALTER TABLE events ADD COLUMN ix_run bytea;
UPDATE events SET ix_run = convert_to(data->>'run_id', 'UTF8') || '\\x00'::bytea || id || '\\x00'::bytea || id
WHERE data->>'run_id' IS NOT NULL;
CREATE INDEX events__run ON events (ix_run) WHERE ix_run IS NOT NULL;
`,
  },
  {
    version: 10,
    name: 'workflow schedules',
    sql: `
CREATE TABLE workflow_schedules (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_workflow bytea,
  ix_due bytea
);
CREATE INDEX workflow_schedules__workflow ON workflow_schedules (ix_workflow) WHERE ix_workflow IS NOT NULL;
CREATE INDEX workflow_schedules__due ON workflow_schedules (ix_due) WHERE ix_due IS NOT NULL;
`,
  },
  {
    version: 11,
    name: 'jobs',
    sql: `
CREATE TABLE jobs (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_organization bytea,
  ix_organization_status bytea,
  ix_queue bytea,
  ix_leases bytea
);
CREATE INDEX jobs__organization ON jobs (ix_organization) WHERE ix_organization IS NOT NULL;
CREATE INDEX jobs__organization_status ON jobs (ix_organization_status) WHERE ix_organization_status IS NOT NULL;
CREATE INDEX jobs__queue ON jobs (ix_queue) WHERE ix_queue IS NOT NULL;
CREATE INDEX jobs__leases ON jobs (ix_leases) WHERE ix_leases IS NOT NULL;
`,
  },
  {
    version: 12,
    name: 'webhook deliveries handed off by a fan-out step, one record per step',
    sql: `
CREATE TABLE webhook_handoffs (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_leases bytea
);
CREATE INDEX webhook_handoffs__leases ON webhook_handoffs (ix_leases) WHERE ix_leases IS NOT NULL;
`,
  },
  {
    version: 13,
    name: 'principals by identity-provider subject (one principal per subject)',
    sql: `
ALTER TABLE principals ADD COLUMN ix_external_id bytea;
ALTER TABLE principals ADD CONSTRAINT principals__external_id UNIQUE (ix_external_id) DEFERRABLE INITIALLY DEFERRED;
`,
  },
  {
    version: 14,
    name: 'counts kept with what they count (pending invitations, hourly log entries per subject)',
    sql: `
CREATE TABLE counters (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL
);
`,
  },
  {
    version: 15,
    name: 'runs waiting for input, by when they began to (expiry)',
    // The key workflows/store.ts builds: "waiting", the run's updated_at and its id, joined by a zero byte.
    sql: `
ALTER TABLE workflow_runs ADD COLUMN ix_waiting bytea;
UPDATE workflow_runs SET ix_waiting = convert_to('waiting', 'UTF8') || '\\x00'::bytea || convert_to(data->>'updated_at', 'UTF8') || '\\x00'::bytea || id
WHERE data->>'status' = 'waiting';
CREATE INDEX workflow_runs__waiting ON workflow_runs (ix_waiting) WHERE ix_waiting IS NOT NULL;
`,
  },
  {
    version: 16,
    name: 'tenant portal sessions',
    sql: `
CREATE TABLE portal_sessions (
  id bytea PRIMARY KEY,
  data jsonb NOT NULL,
  ix_organization bytea
);
CREATE INDEX portal_sessions__organization ON portal_sessions (ix_organization) WHERE ix_organization IS NOT NULL;
`,
  },
  {
    version: 17,
    name: "every subject's hourly-log count, with its oldest entry's time",
    // hourly-log.ts countSubjects, in SQL: a subject with no count has no entries.
    sql: `
INSERT INTO counters (id, data)
SELECT convert_to('invitation_sends:' || subject, 'UTF8'), jsonb_build_object('id', 'invitation_sends:' || subject, 'count', n, 'oldest', oldest)
FROM (SELECT data->>'subject' AS subject, count(*)::int AS n, min(data->>'at') AS oldest FROM invitation_sends GROUP BY 1) s
ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data;
INSERT INTO counters (id, data)
SELECT convert_to('invitation_recipient_sends:' || subject, 'UTF8'), jsonb_build_object('id', 'invitation_recipient_sends:' || subject, 'count', n, 'oldest', oldest)
FROM (SELECT data->>'subject' AS subject, count(*)::int AS n, min(data->>'at') AS oldest FROM invitation_recipient_sends GROUP BY 1) s
ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data;
INSERT INTO counters (id, data)
SELECT convert_to('organization_creates:' || subject, 'UTF8'), jsonb_build_object('id', 'organization_creates:' || subject, 'count', n, 'oldest', oldest)
FROM (SELECT data->>'subject' AS subject, count(*)::int AS n, min(data->>'at') AS oldest FROM organization_creates GROUP BY 1) s
ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data;
`,
  },
  {
    version: 18,
    name: "platform webhooks (the operator's, every organization's events)",
    // No webhook before this one is a platform webhook: the index starts empty.
    sql: `
ALTER TABLE webhooks ADD COLUMN ix_platform bytea;
CREATE INDEX webhooks__platform ON webhooks (ix_platform) WHERE ix_platform IS NOT NULL;
`,
  },
  {
    version: 19,
    name: "one display name per organization, the record's (settings read and write it)",
    // LevelDB migration 9 in SQL: a display_name an owner set in settings replaces the record's (it is
    // what invitation mail showed); settings records lose the field.
    sql: `
UPDATE organizations o SET data = jsonb_set(o.data, '{display_name}', s.data->'display_name')
FROM organization_settings s
WHERE s.id = o.id AND jsonb_typeof(s.data->'display_name') = 'string' AND s.data->>'display_name' <> '';
UPDATE organization_settings SET data = data - 'display_name' WHERE data ? 'display_name';
`,
  },
  {
    version: 20,
    name: 'portal sessions by when they end (sweep)',
    // The key domain/portal/store.ts builds: "all", the session's expires_at and its id, joined by a zero byte.
    sql: `
ALTER TABLE portal_sessions ADD COLUMN ix_expiry bytea;
UPDATE portal_sessions SET ix_expiry = convert_to('all', 'UTF8') || '\\x00'::bytea || convert_to(data->>'expires_at', 'UTF8') || '\\x00'::bytea || id;
CREATE INDEX portal_sessions__expiry ON portal_sessions (ix_expiry) WHERE ix_expiry IS NOT NULL;
`,
  },
  {
    version: 21,
    name: 'ended jobs by when they ended (purge)',
    // The key domain/jobs/store.ts builds for a completed, failed or cancelled job: "finished", its
    // finished_at and its id, joined by a zero byte.
    sql: `
ALTER TABLE jobs ADD COLUMN ix_finished bytea;
UPDATE jobs SET ix_finished = convert_to('finished', 'UTF8') || '\\x00'::bytea || convert_to(coalesce(data->>'finished_at', ''), 'UTF8') || '\\x00'::bytea || id
WHERE data->>'status' IN ('completed', 'failed', 'cancelled');
CREATE INDEX jobs__finished ON jobs (ix_finished) WHERE ix_finished IS NOT NULL;
`,
  },
  {
    version: 22,
    name: "deliveries by the organization that owns their webhook (the organization's list)",
    // Each delivery gains its webhook's organization (null: a platform webhook, or one no longer
    // stored), and the keys domain/webhooks/store.ts builds: owner and id; owner, status and id;
    // webhook, status and id; joined by a zero byte. Hand-off batches gain the field per delivery.
    // LevelDB migration 12 does the same.
    sql: `
ALTER TABLE webhook_deliveries ADD COLUMN ix_organization bytea, ADD COLUMN ix_organization_status bytea, ADD COLUMN ix_webhook_status bytea;
UPDATE webhook_deliveries d SET
  data = d.data || jsonb_build_object('webhook_organization_id', o.owner),
  ix_organization = convert_to(o.owner, 'UTF8') || '\\x00'::bytea || d.id,
  ix_organization_status = convert_to(o.owner, 'UTF8') || '\\x00'::bytea || convert_to(d.data->>'status', 'UTF8') || '\\x00'::bytea || d.id,
  ix_webhook_status = convert_to(d.data->>'webhook_id', 'UTF8') || '\\x00'::bytea || convert_to(d.data->>'status', 'UTF8') || '\\x00'::bytea || d.id
FROM (
  SELECT x.id, w.data->>'organization_id' AS owner
  FROM webhook_deliveries x LEFT JOIN webhooks w ON w.id = convert_to(x.data->>'webhook_id', 'UTF8')
) o
WHERE o.id = d.id;
UPDATE webhook_handoffs h SET data = jsonb_set(h.data, '{deliveries}', coalesce((
  SELECT jsonb_agg(e.d || jsonb_build_object('webhook_organization_id', w.data->'organization_id') ORDER BY e.n)
  FROM jsonb_array_elements(h.data->'deliveries') WITH ORDINALITY AS e(d, n)
  LEFT JOIN webhooks w ON w.id = convert_to(e.d->>'webhook_id', 'UTF8')
), '[]'::jsonb));
CREATE INDEX webhook_deliveries__organization ON webhook_deliveries (ix_organization) WHERE ix_organization IS NOT NULL;
CREATE INDEX webhook_deliveries__organization_status ON webhook_deliveries (ix_organization_status) WHERE ix_organization_status IS NOT NULL;
CREATE INDEX webhook_deliveries__webhook_status ON webhook_deliveries (ix_webhook_status) WHERE ix_webhook_status IS NOT NULL;
`,
  },
  {
    version: 23,
    name: 'runs waiting for input, by their own deadline (expiry)',
    // LevelDB migration 13: a run already waiting gets wait_expires_at = began (its updated_at) +
    // SERVICE_RUN_WAIT_TIMEOUT_MS (the transaction's switchyard.run_wait_timeout_ms, which
    // applySqlMigrations sets), in toISOString's form, and is keyed by it as workflows/store.ts keys it.
    sql: `
UPDATE workflow_runs r
SET data = jsonb_set(r.data, '{wait_expires_at}', to_jsonb(w.at)),
    ix_waiting = convert_to('waiting', 'UTF8') || '\\x00'::bytea || convert_to(w.at, 'UTF8') || '\\x00'::bytea || r.id
FROM (
  SELECT id, to_char(
    ((data->>'updated_at')::timestamptz + current_setting('switchyard.run_wait_timeout_ms')::bigint * interval '1 millisecond')
      AT TIME ZONE 'UTC',
    'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
  ) AS at
  FROM workflow_runs
  WHERE data->>'status' = 'waiting'
) w
WHERE r.id = w.id;
`,
  },
  {
    version: 24,
    name: "grants of principals who are not members of the grant's organization, deleted",
    // LevelDB migration 14: a grant whose principal holds no membership (organization-level or on a
    // team, whose record names the team's organization) in the grant's organization goes.
    sql: `
DELETE FROM grants g
WHERE NOT EXISTS (
  SELECT 1 FROM memberships m
  WHERE m.data->>'organization_id' = g.data->>'organization_id' AND m.data->>'principal_id' = g.data->>'principal_id'
);
`,
  },
];

/**
 * Applies those of `list` above the database's version, each in its own transaction with its row in
 * schema_migrations. The caller holds the migration lock; tests hand it the first few migrations to
 * lay out the database an older daemon left.
 */
export async function applySqlMigrations(
  client: pg.ClientBase,
  list: readonly SqlMigration[],
  onApplied: (m: SqlMigration) => void = () => undefined,
  context: MigrationContext = defaultMigrationContext,
): Promise<void> {
  await client.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
  const from = rows[0].version ?? 0;
  const latest = list.reduce((max, m) => Math.max(max, m.version), 0);
  if (from > latest) throw new NewerSchemaError(from, latest, 'the PostgreSQL database');
  for (const m of list.filter((m) => m.version > from).sort((a, b) => a.version - b.version)) {
    await client.query('BEGIN');
    try {
      // What data migrations read of the configuration, for this transaction only.
      await client.query("SELECT set_config('switchyard.run_wait_timeout_ms', $1, true)", [String(context.runWaitTimeoutMs)]);
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    }
    onApplied(m);
  }
}
