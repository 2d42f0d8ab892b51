// Original file: switchyard/admin/v1/events.proto


export interface ListEventsRequest {
  'organization'?: (string);
  'kind'?: (string);
  'after'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  '_kind'?: "kind";
  '_after'?: "after";
}

export interface ListEventsRequest__Output {
  'organization': (string);
  'kind'?: (string);
  'after'?: (string);
  'limit': (number);
  'cursor': (string);
  '_kind'?: "kind";
  '_after'?: "after";
}
