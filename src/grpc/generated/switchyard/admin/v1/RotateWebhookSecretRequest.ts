// Original file: switchyard/admin/v1/webhooks.proto


export interface RotateWebhookSecretRequest {
  'id'?: (string);
  'grace_seconds'?: (number);
  'organization'?: (string);
  '_grace_seconds'?: "grace_seconds";
  '_organization'?: "organization";
}

export interface RotateWebhookSecretRequest__Output {
  'id': (string);
  'grace_seconds'?: (number);
  'organization'?: (string);
  '_grace_seconds'?: "grace_seconds";
  '_organization'?: "organization";
}
