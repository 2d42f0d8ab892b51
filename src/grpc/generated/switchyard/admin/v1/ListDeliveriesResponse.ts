// Original file: switchyard/admin/v1/webhooks.proto

import type { WebhookDelivery as _switchyard_admin_v1_WebhookDelivery, WebhookDelivery__Output as _switchyard_admin_v1_WebhookDelivery__Output } from '../../../switchyard/admin/v1/WebhookDelivery.js';

export interface ListDeliveriesResponse {
  'deliveries'?: (_switchyard_admin_v1_WebhookDelivery)[];
  'next_cursor'?: (string);
}

export interface ListDeliveriesResponse__Output {
  'deliveries': (_switchyard_admin_v1_WebhookDelivery__Output)[];
  'next_cursor': (string);
}
