// Original file: switchyard/admin/v1/webhooks.proto


export interface ListDeliveriesRequest {
  'webhook_id'?: (string);
  'organization'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  '_organization'?: "organization";
}

export interface ListDeliveriesRequest__Output {
  'webhook_id': (string);
  'organization'?: (string);
  'limit': (number);
  'cursor': (string);
  '_organization'?: "organization";
}
