// Original file: switchyard/admin/v1/webhooks.proto


export interface GetDeliveryRequest {
  'webhook_id'?: (string);
  'delivery_id'?: (string);
  'organization'?: (string);
  '_organization'?: "organization";
}

export interface GetDeliveryRequest__Output {
  'webhook_id': (string);
  'delivery_id': (string);
  'organization'?: (string);
  '_organization'?: "organization";
}
