// Original file: switchyard/admin/v1/events.proto


export interface TailEventsRequest {
  'organization'?: (string);
  'kind'?: (string);
  'since'?: (string);
  '_kind'?: "kind";
  '_since'?: "since";
}

export interface TailEventsRequest__Output {
  'organization': (string);
  'kind'?: (string);
  'since'?: (string);
  '_kind'?: "kind";
  '_since'?: "since";
}
