// Original file: switchyard/admin/v1/webhooks.proto


export interface RetryDeliveryRequest {
  'webhook_id'?: (string);
  'delivery_id'?: (string);
  'organization'?: (string);
  '_organization'?: "organization";
}

export interface RetryDeliveryRequest__Output {
  'webhook_id': (string);
  'delivery_id': (string);
  'organization'?: (string);
  '_organization'?: "organization";
}
