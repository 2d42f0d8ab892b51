// Original file: switchyard/admin/v1/outbox.proto


export interface GetOutboxEntryRequest {
  'id'?: (string);
}

export interface GetOutboxEntryRequest__Output {
  'id': (string);
}
