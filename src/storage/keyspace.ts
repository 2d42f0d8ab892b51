// Every sublevel of the database is named here, so the whole layout can be read in one place.
// A collection `name` owns sublevel `name`; each of its indexes owns sublevel `name~index`.
// The PostgreSQL migrations lay out the same thing as tables (test/postgres-keyspace.test.ts holds
// a migrated database against this file), and a store's Collection must declare the same indexes
// and the same unique ones (storage/collection.ts checks at construction).

/** A collection's secondary indexes, and which of them are unique (a second holder is `conflict`). */
export interface CollectionLayout {
  indexes: readonly string[];
  unique?: readonly string[];
}

// Every list a client pages through is a range read of one index (a compound one when the list is
// filtered), so a page is never thinned after the read and a cursor means more items exist.

export const collections = {
  /** By organization; by kind; by organization and kind; by run; all in append (id) order. */
  events: { indexes: ['organization', 'kind', 'organization_kind', 'run'] },
  /** By email (unique); by identity-provider subject (unique). */
  principals: { indexes: ['email', 'external_id'], unique: ['email', 'external_id'] },
  organizations: { indexes: ['slug'], unique: ['slug'] },
  teams: { indexes: ['organization'] },
  /**
   * By principal (organization order); by organization; one per scope (unique); by organization and
   * team; the organization-level owners of each organization.
   */
  memberships: { indexes: ['principal', 'organization', 'scope', 'team', 'owner'], unique: ['scope'] },
  /**
   * By organization; by principal (organization order: the per-organization cap); by the resource
   * granted on (type and id); by principal and resource, in action order (permission checks).
   */
  grants: { indexes: ['organization', 'principal', 'resource', 'principal_resource'] },
  /**
   * By prefix (unique); active (unrevoked) keys by organization, and by organization and principal;
   * every key by organization.
   */
  api_keys: { indexes: ['prefix', 'organization', 'organization_principal', 'organization_all'], unique: ['prefix'] },
  // Invitations (docs/invitations.md): list by org; by org and status; pending by org in expiry order
  // (limit count, Retry-After); one pending per org and email (unique); all pending by expiry (sweep).
  invitations: {
    indexes: ['organization', 'org_status', 'org_pending', 'pending_email', 'expiry'],
    unique: ['pending_email'],
  },
  /** Per-organization sliding-hour log of invitation sends, by organization in time order. */
  invitation_sends: { indexes: ['subject'] },
  /** Per-address sliding-hour log of invitation mail, all organizations together, by address in time order. */
  invitation_recipient_sends: { indexes: ['subject'] },
  /** Per-principal sliding-hour log of organizations created over /v1, by principal in time order. */
  organization_creates: { indexes: ['subject'] },
  /**
   * Counts kept in the transactions that change what they count (storage/counters.ts), id
   * `<what>:<subject>`: an organization's pending invitations, each hourly log's entries per subject.
   */
  counters: { indexes: [] },
  /** Organization settings, one record per configured organization (id = organization id). */
  organization_settings: { indexes: [] },
  /** Webhooks (not deleted) by organization, and the platform ones (every organization's events), in creation order. */
  webhooks: { indexes: ['organization', 'platform'] },
  /**
   * Webhook deliveries: by webhook (newest last); the due/lease queue; the due queue per webhook and
   * the webhooks that have one (the sender's fair fill); those held while their webhook is paused, by
   * webhook; failed ones by webhook in creation order (recovery windows); by the organization that
   * owns the webhook, alone and with the status, and by webhook and status (the organization's list).
   */
  webhook_deliveries: {
    indexes: [
      'webhook',
      'queue',
      'webhook_due',
      'due_webhooks',
      'held',
      'webhook_failed',
      'organization',
      'organization_status',
      'webhook_status',
    ],
  },
  /** Deliveries a fan-out step handed to its daemon's free slots, one record per step; by lease end (takeover). */
  webhook_handoffs: { indexes: ['leases'] },
  /** Email outbox: due/lease queue, by status, by organization, by both, all in creation order. */
  email_outbox: { indexes: ['queue', 'status', 'organization', 'created', 'organization_status'] },
  /** Provider routing settings an operator changed (id = provider name). */
  provider_settings: { indexes: [] },
  /** Provider usage records by organization, in time order (the usage report's window is a range read). */
  provider_usage: { indexes: ['organization'] },
  /** Audit records by organization; by organization and actor, action, or both; all in id (time) order. */
  audit_log: { indexes: ['organization', 'organization_actor', 'organization_action', 'organization_actor_action'] },
  /** Assets (docs/assets.md): by run; by job (both in creation order); every asset by creation time (retention). */
  assets: { indexes: ['run', 'job', 'created'] },
  /**
   * Asset bytes on PostgreSQL, 256 KiB a record (`<asset id>:<n>`), so every daemon serves them;
   * LevelDB keeps them as files in <data dir>/assets instead.
   */
  asset_chunks: { indexes: [] },
  /** Workflow definitions (live ones) by organization in name order; by organization and name (unique). */
  workflow_definitions: { indexes: ['organization', 'name'], unique: ['name'] },
  /**
   * Workflow runs: by organization, by definition, by organization and status (creation order); the
   * queue per organization and the organizations that have one; runs in progress per organization
   * (the concurrency bound) and by lease end (takeover).
   */
  workflow_runs: {
    indexes: ['organization', 'workflow', 'organization_status', 'queue', 'queued_orgs', 'running', 'leases', 'waiting'],
  },
  /**
   * Jobs: by organization, by organization and status (creation order); the queue; running ones by
   * lease end; ended ones by when they ended (purge).
   */
  jobs: { indexes: ['organization', 'organization_status', 'queue', 'leases', 'finished'] },
  /**
   * Workflow schedules: live ones by definition (creation order); the fire queue: live schedules by
   * next fire time (`due`) or, while a daemon has claimed one, by lease end (`leased`).
   */
  workflow_schedules: { indexes: ['workflow', 'due'] },
  /** Tenant portal sessions (docs/portal.md), found by id; by organization in creation order; all by end (sweep). */
  portal_sessions: { indexes: ['organization', 'expiry'] },
} as const satisfies Record<string, CollectionLayout>;

export type CollectionName = keyof typeof collections;

/** Sublevels that are not collections: small key-value tables. */
export const tables = {
  /** schema_version, generated secrets, durable consumer cursors. */
  meta: 'meta',
} as const;

export function indexSublevelName(collection: string, index: string): string {
  return `${collection}~${index}`;
}
