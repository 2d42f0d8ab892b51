// Original file: switchyard/admin/v1/webhooks.proto


export interface ListWebhooksRequest {
  'organization'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
}

export interface ListWebhooksRequest__Output {
  'organization': (string);
  'limit': (number);
  'cursor': (string);
}
