// Original file: switchyard/admin/v1/webhooks.proto


export interface ListWebhooksRequest {
  'organization'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  'all_organizations'?: (boolean);
}

export interface ListWebhooksRequest__Output {
  'organization': (string);
  'limit': (number);
  'cursor': (string);
  'all_organizations': (boolean);
}
