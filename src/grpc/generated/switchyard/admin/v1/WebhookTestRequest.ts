// Original file: switchyard/admin/v1/webhooks.proto


export interface WebhookTestRequest {
  'id'?: (string);
  'organization'?: (string);
  '_organization'?: "organization";
}

export interface WebhookTestRequest__Output {
  'id': (string);
  'organization'?: (string);
  '_organization'?: "organization";
}
