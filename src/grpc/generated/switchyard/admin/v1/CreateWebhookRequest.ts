// Original file: switchyard/admin/v1/webhooks.proto

import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value.js';

export interface CreateWebhookRequest {
  'organization'?: (string);
  'url'?: (string);
  'event_filter'?: (string)[];
  'resource_filter'?: ({[key: string]: string});
  'state'?: (_google_protobuf_Value | null);
  'max_retries'?: (number);
  'description'?: (string);
  'active'?: (boolean);
  'secret'?: (string);
  'all_organizations'?: (boolean);
  '_max_retries'?: "max_retries";
  '_description'?: "description";
  '_active'?: "active";
  '_secret'?: "secret";
}

export interface CreateWebhookRequest__Output {
  'organization': (string);
  'url': (string);
  'event_filter': (string)[];
  'resource_filter': ({[key: string]: string});
  'state': (_google_protobuf_Value__Output | null);
  'max_retries'?: (number);
  'description'?: (string);
  'active'?: (boolean);
  'secret'?: (string);
  'all_organizations': (boolean);
  '_max_retries'?: "max_retries";
  '_description'?: "description";
  '_active'?: "active";
  '_secret'?: "secret";
}
