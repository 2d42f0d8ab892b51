// Original file: switchyard/admin/v1/webhooks.proto


export interface PauseWebhookRequest {
  'id'?: (string);
  'organization'?: (string);
  '_organization'?: "organization";
}

export interface PauseWebhookRequest__Output {
  'id': (string);
  'organization'?: (string);
  '_organization'?: "organization";
}
