// Original file: switchyard/admin/v1/webhooks.proto

import type { Webhook as _switchyard_admin_v1_Webhook, Webhook__Output as _switchyard_admin_v1_Webhook__Output } from '../../../switchyard/admin/v1/Webhook.js';

export interface ListWebhooksResponse {
  'webhooks'?: (_switchyard_admin_v1_Webhook)[];
  'next_cursor'?: (string);
}

export interface ListWebhooksResponse__Output {
  'webhooks': (_switchyard_admin_v1_Webhook__Output)[];
  'next_cursor': (string);
}
