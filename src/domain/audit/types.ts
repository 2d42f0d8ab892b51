// The audit log: who changed what, when and through what. Separate from domain events (which
// webhook receivers see), so it may name operators and keys and never widens the event catalog.

/** Who made a change: a principal (JWT or development header), an API key, or the operator (admin API). */
export type AuditActor =
  | { type: 'principal'; principal_id: string; method: 'jwt' | 'dev' | 'invitation_link' }
  | { type: 'api_key'; api_key_id: string; principal_id: string }
  | { type: 'portal_session'; portal_session_id: string; principal_id: string }
  | { type: 'operator' };

/** The transport a change arrived through; `system` for changes the daemon makes itself (dev bootstrap). */
export type AuditSource = 'http' | 'grpc' | 'system';

export interface AuditRecord {
  /** `aud_` + a time-sortable id: id order is time order, so a time window is a range read. */
  id: string;
  /** null for changes outside any organization (provider routing settings). */
  organization_id: string | null;
  actor: AuditActor;
  /** The catalog's verb for the change, e.g. `member.update`, `webhook.rotate_secret`. */
  action: string;
  target: { type: string; id: string };
  /** The changed fields only: before (null on creation) and after (null on deletion); secrets masked. */
  changes: { before: Record<string, unknown> | null; after: Record<string, unknown> | null };
  timestamp: string;
  request_id: string | null;
  source: AuditSource;
}

/** What a service hands the audit log: the log works out the actor, the diff and the masking. */
export interface AuditChange {
  organization_id: string | null;
  action: string;
  target: { type: string; id: string };
  /** The record before the change (undefined: it is new). */
  before?: object;
  /** The record after the change (undefined: it is gone). */
  after?: object;
}
