// Original file: switchyard/admin/v1/outbox.proto


export interface ListOutboxRequest {
  'organization'?: (string);
  'status'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  '_organization'?: "organization";
  '_status'?: "status";
}

export interface ListOutboxRequest__Output {
  'organization'?: (string);
  'status'?: (string);
  'limit': (number);
  'cursor': (string);
  '_organization'?: "organization";
  '_status'?: "status";
}
