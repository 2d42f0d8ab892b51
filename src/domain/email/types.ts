// The email outbox (spec 3.2, contract 2): a mail is written in the same batch as the change that
// causes it, then a poller claims it with a lease and sends it, with retries on a fixed schedule.

export const outboxStatuses = ['pending', 'sending', 'sent', 'failed', 'held', 'cancelled'] as const;
export type OutboxStatus = (typeof outboxStatuses)[number];

export interface EmailAttempt {
  at: string;
  duration_ms: number;
  /** null on success. */
  error: string | null;
  /** HTTP status from the provider API, or the SMTP reply code, when one was received. */
  status_code: number | null;
  /** The daemon stopped (crash) during this attempt; its lease expired and the mail was re-sent. */
  interrupted?: boolean;
}

/** What an invitation mail shows, captured when it is queued (settings at that moment). */
export interface InvitationMailData {
  invitation_id: string;
  organization_display_name: string;
  logo_url: string | null;
  from_name: string | null;
  role: string;
  expires_at: string;
  /** The invitation lifetime, for the "expires in 7 days" notice. */
  ttl_ms: number;
}

export interface OutboxEntry {
  id: string;
  organization_id: string;
  kind: 'invitation';
  to: string;
  data: InvitationMailData;
  /** The accept token, AES-256-GCM sealed (never in clear); wiped once the mail is sent or moot. */
  token_sealed: string | null;
  status: OutboxStatus;
  attempts: EmailAttempt[];
  /** Attempts before the last manual retry: the retry budget counts only the ones after it. */
  retry_base: number;
  /** When a pending entry is due. */
  next_attempt_at: string | null;
  /** While sending: who holds the lease and until when (a crashed daemon's lease is re-claimed). */
  lease_owner: string | null;
  lease_until: string | null;
  provider_message_id: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
}

/** An entry as shown to operators: the rendered headers, never the sealed token. */
export interface OutboxEntryView extends Omit<OutboxEntry, 'token_sealed' | 'lease_owner' | 'data'> {
  invitation_id: string;
  from: string;
  subject: string;
  /** Only for `held` entries (development without a transport), so a developer can accept locally. */
  accept_url: string | null;
}

export interface OutgoingMail {
  /** The outbox entry id: the provider's Idempotency-Key and the Message-ID's local part. */
  id: string;
  from: { name: string; address: string };
  to: string;
  subject: string;
  html: string;
  text: string;
}

export type SendResult =
  | { ok: true; providerMessageId: string | null; statusCode: number | null }
  | { ok: false; error: string; statusCode: number | null; retryAfterMs?: number };

/** A way to deliver mail: the provider's HTTP API or SMTP. */
export interface EmailTransport {
  /** `provider` (the email provider's API) or `smtp`. */
  readonly name: string;
  send(mail: OutgoingMail): Promise<SendResult>;
  /** Releases what the transport holds; called once at shutdown, after the outbox loop has stopped. */
  close(): Promise<void>;
}
