// Original file: switchyard/admin/v1/webhooks.proto

import type { WebhookDeliveryAttempt as _switchyard_admin_v1_WebhookDeliveryAttempt, WebhookDeliveryAttempt__Output as _switchyard_admin_v1_WebhookDeliveryAttempt__Output } from '../../../switchyard/admin/v1/WebhookDeliveryAttempt.js';

export interface WebhookDelivery {
  'id'?: (string);
  'webhook_id'?: (string);
  'event_id'?: (string);
  'event_kind'?: (string);
  'status'?: (string);
  'status_code'?: (number);
  'error_message'?: (string);
  'attempt'?: (number);
  'attempts'?: (_switchyard_admin_v1_WebhookDeliveryAttempt)[];
  'next_attempt_at'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  '_status_code'?: "status_code";
  '_error_message'?: "error_message";
  '_next_attempt_at'?: "next_attempt_at";
}

export interface WebhookDelivery__Output {
  'id': (string);
  'webhook_id': (string);
  'event_id': (string);
  'event_kind': (string);
  'status': (string);
  'status_code'?: (number);
  'error_message'?: (string);
  'attempt': (number);
  'attempts': (_switchyard_admin_v1_WebhookDeliveryAttempt__Output)[];
  'next_attempt_at'?: (string);
  'created_at': (string);
  'updated_at': (string);
  '_status_code'?: "status_code";
  '_error_message'?: "error_message";
  '_next_attempt_at'?: "next_attempt_at";
}
