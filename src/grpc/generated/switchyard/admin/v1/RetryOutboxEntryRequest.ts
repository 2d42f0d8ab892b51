// Original file: switchyard/admin/v1/outbox.proto


export interface RetryOutboxEntryRequest {
  'id'?: (string);
}

export interface RetryOutboxEntryRequest__Output {
  'id': (string);
}
