// Portal sessions (docs/portal.md): a link an organization's admin (or the operator) mints, exchanged
// once for a cookie that lets a browser see, and with `manage_webhooks` change, that organization's
// integration through the same services and checks as /v1.

export const portalCapabilities = ['read', 'manage_webhooks'] as const;
export type PortalCapability = (typeof portalCapabilities)[number];

export interface PortalSessionRecord {
  id: string;
  organization_id: string;
  /** Who minted it (the operator mints as the organization's first owner); recorded in the audit log. */
  principal_id: string;
  capabilities: PortalCapability[];
  /** SHA-256 (hex) of the link token's secret part; the link works once. */
  link_hash: string;
  /** When the link was exchanged for the cookie; null while it is unused. */
  link_used_at: string | null;
  /** SHA-256 (hex) of the cookie's secret part; null until the link is used. */
  session_hash: string | null;
  expires_at: string;
  created_at: string;
}

/** What a mint answers: the link (shown once) and when the session ends. */
export interface MintedPortalSession {
  id: string;
  organization_id: string;
  url: string;
  expires_at: string;
  capabilities: PortalCapability[];
}
