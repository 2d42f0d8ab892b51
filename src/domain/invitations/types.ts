import type { Role } from '../identity/roles.js';

// Spec 2.3 and 3.1: an invitation and its states.

export const invitationStatuses = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof invitationStatuses)[number];

export interface Invitation {
  id: string;
  organization_id: string;
  /** Trimmed and lower-cased: emails match case-insensitively. */
  email: string;
  role: Role;
  status: InvitationStatus;
  expires_at: string;
  created_at: string;
  updated_at: string;
  /** The inviting principal; null when the operator invited. */
  created_by: string | null;
  /** HMAC-SHA256 (hex) of the current accept token; the token itself is never stored. */
  token_hash: string;
  /** The outbox entry of the latest mail (a resend replaces it). */
  outbox_entry_id: string | null;
  /** Mails sent for this invitation: the first plus resends. */
  send_count: number;
  accepted_at: string | null;
  accepted_by: string | null;
  membership_id: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
  expired_at: string | null;
}

/** A pending invitation past its expiry reads as expired at once, before the sweep records it. */
export function effectiveStatus(invitation: Invitation, now = Date.now()): InvitationStatus {
  return invitation.status === 'pending' && Date.parse(invitation.expires_at) <= now ? 'expired' : invitation.status;
}

/** One counted send (create or resend) in an organization's sliding-hour log. */
export interface InvitationSend {
  id: string;
  /** The organization. */
  subject: string;
  organization_id: string;
  invitation_id: string;
  at: string;
}

/** One invitation mail to an address, whatever the organization (the per-recipient hourly limit). */
export interface RecipientSend {
  id: string;
  /** The recipient's address. */
  subject: string;
  organization_id: string;
  invitation_id: string;
  at: string;
}

export interface AcceptResult {
  status: 'accepted';
  invitation_id: string;
  organization_id: string;
  membership_id: string;
}

/** Why an accept failed: the redirect's `reason` and the JSON error code alike (contract 6). */
export const acceptFailures = ['invalid_token', 'already_accepted', 'expired', 'revoked'] as const;
export type AcceptFailure = (typeof acceptFailures)[number];
