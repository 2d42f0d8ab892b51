// Original file: switchyard/admin/v1/webhooks.proto


export interface WebhookTestResponse {
  'webhook_id'?: (string);
  'event_id'?: (string);
}

export interface WebhookTestResponse__Output {
  'webhook_id': (string);
  'event_id': (string);
}
