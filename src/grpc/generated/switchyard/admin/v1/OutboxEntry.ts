// Original file: switchyard/admin/v1/outbox.proto

import type { EmailAttempt as _switchyard_admin_v1_EmailAttempt, EmailAttempt__Output as _switchyard_admin_v1_EmailAttempt__Output } from '../../../switchyard/admin/v1/EmailAttempt.js';

export interface OutboxEntry {
  'id'?: (string);
  'organization_id'?: (string);
  'kind'?: (string);
  'to'?: (string);
  'status'?: (string);
  'attempts'?: (_switchyard_admin_v1_EmailAttempt)[];
  'retry_base'?: (number);
  'next_attempt_at'?: (string);
  'lease_until'?: (string);
  'provider_message_id'?: (string);
  'last_error'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  'sent_at'?: (string);
  'invitation_id'?: (string);
  'from'?: (string);
  'subject'?: (string);
  'accept_url'?: (string);
  '_next_attempt_at'?: "next_attempt_at";
  '_lease_until'?: "lease_until";
  '_provider_message_id'?: "provider_message_id";
  '_last_error'?: "last_error";
  '_sent_at'?: "sent_at";
  '_accept_url'?: "accept_url";
}

export interface OutboxEntry__Output {
  'id': (string);
  'organization_id': (string);
  'kind': (string);
  'to': (string);
  'status': (string);
  'attempts': (_switchyard_admin_v1_EmailAttempt__Output)[];
  'retry_base': (number);
  'next_attempt_at'?: (string);
  'lease_until'?: (string);
  'provider_message_id'?: (string);
  'last_error'?: (string);
  'created_at': (string);
  'updated_at': (string);
  'sent_at'?: (string);
  'invitation_id': (string);
  'from': (string);
  'subject': (string);
  'accept_url'?: (string);
  '_next_attempt_at'?: "next_attempt_at";
  '_lease_until'?: "lease_until";
  '_provider_message_id'?: "provider_message_id";
  '_last_error'?: "last_error";
  '_sent_at'?: "sent_at";
  '_accept_url'?: "accept_url";
}
