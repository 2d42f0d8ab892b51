// Original file: switchyard/admin/v1/workflows.proto


export interface ListRunEventsRequest {
  'id'?: (string);
  'organization'?: (string);
  'after'?: (string);
  'limit'?: (number);
  '_organization'?: "organization";
  '_after'?: "after";
}

export interface ListRunEventsRequest__Output {
  'id': (string);
  'organization'?: (string);
  'after'?: (string);
  'limit': (number);
  '_organization'?: "organization";
  '_after'?: "after";
}
