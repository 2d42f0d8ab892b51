// Original file: switchyard/admin/v1/webhooks.proto

import type { Webhook as _switchyard_admin_v1_Webhook, Webhook__Output as _switchyard_admin_v1_Webhook__Output } from '../../../switchyard/admin/v1/Webhook.js';

export interface WebhookWithSecret {
  'webhook'?: (_switchyard_admin_v1_Webhook | null);
  'secret'?: (string);
  'standard_secret'?: (string);
}

export interface WebhookWithSecret__Output {
  'webhook': (_switchyard_admin_v1_Webhook__Output | null);
  'secret': (string);
  'standard_secret': (string);
}
