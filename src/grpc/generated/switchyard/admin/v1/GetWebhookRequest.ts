// Original file: switchyard/admin/v1/webhooks.proto


export interface GetWebhookRequest {
  'id'?: (string);
  'organization'?: (string);
  '_organization'?: "organization";
}

export interface GetWebhookRequest__Output {
  'id': (string);
  'organization'?: (string);
  '_organization'?: "organization";
}
