// Original file: switchyard/admin/v1/webhooks.proto


export interface WebhookDeliveryAttempt {
  'attempt'?: (number);
  'at'?: (string);
  'status_code'?: (number);
  'duration_ms'?: (number);
  'error'?: (string);
  'response'?: (string);
  '_status_code'?: "status_code";
  '_error'?: "error";
  '_response'?: "response";
}

export interface WebhookDeliveryAttempt__Output {
  'attempt': (number);
  'at': (string);
  'status_code'?: (number);
  'duration_ms': (number);
  'error'?: (string);
  'response'?: (string);
  '_status_code'?: "status_code";
  '_error'?: "error";
  '_response'?: "response";
}
