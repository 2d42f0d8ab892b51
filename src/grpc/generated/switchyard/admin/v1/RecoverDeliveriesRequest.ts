// Original file: switchyard/admin/v1/webhooks.proto


export interface RecoverDeliveriesRequest {
  'webhook_id'?: (string);
  'since'?: (string);
  'until'?: (string);
  'organization'?: (string);
  '_until'?: "until";
  '_organization'?: "organization";
}

export interface RecoverDeliveriesRequest__Output {
  'webhook_id': (string);
  'since': (string);
  'until'?: (string);
  'organization'?: (string);
  '_until'?: "until";
  '_organization'?: "organization";
}
