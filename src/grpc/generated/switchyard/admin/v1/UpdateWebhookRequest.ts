// Original file: switchyard/admin/v1/webhooks.proto

import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value.js';

export interface UpdateWebhookRequest {
  'id'?: (string);
  'organization'?: (string);
  'description'?: (string);
  'event_filter'?: (string)[];
  'resource_filter'?: ({[key: string]: string});
  'state'?: (_google_protobuf_Value | null);
  'max_retries'?: (number);
  'active'?: (boolean);
  'reset'?: (string)[];
  '_organization'?: "organization";
  '_description'?: "description";
  '_max_retries'?: "max_retries";
  '_active'?: "active";
}

export interface UpdateWebhookRequest__Output {
  'id': (string);
  'organization'?: (string);
  'description'?: (string);
  'event_filter': (string)[];
  'resource_filter': ({[key: string]: string});
  'state': (_google_protobuf_Value__Output | null);
  'max_retries'?: (number);
  'active'?: (boolean);
  'reset': (string)[];
  '_organization'?: "organization";
  '_description'?: "description";
  '_max_retries'?: "max_retries";
  '_active'?: "active";
}
