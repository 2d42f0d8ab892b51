// Original file: switchyard/admin/v1/webhooks.proto


export interface DeleteWebhookRequest {
  'id'?: (string);
  'organization'?: (string);
  '_organization'?: "organization";
}

export interface DeleteWebhookRequest__Output {
  'id': (string);
  'organization'?: (string);
  '_organization'?: "organization";
}
