// Original file: switchyard/admin/v1/webhooks.proto


export interface ResumeWebhookRequest {
  'id'?: (string);
  'organization'?: (string);
  '_organization'?: "organization";
}

export interface ResumeWebhookRequest__Output {
  'id': (string);
  'organization'?: (string);
  '_organization'?: "organization";
}
