// Original file: switchyard/admin/v1/webhooks.proto

import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value.js';

export interface Webhook {
  'id'?: (string);
  'organization_id'?: (string);
  'url'?: (string);
  'event_filter'?: (string)[];
  'resource_filter'?: ({[key: string]: string});
  'state'?: (_google_protobuf_Value | null);
  'max_retries'?: (number);
  'active'?: (boolean);
  'description'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  'deleted_at'?: (string);
  'all_organizations'?: (boolean);
  '_organization_id'?: "organization_id";
  '_description'?: "description";
  '_deleted_at'?: "deleted_at";
}

export interface Webhook__Output {
  'id': (string);
  'organization_id'?: (string);
  'url': (string);
  'event_filter': (string)[];
  'resource_filter': ({[key: string]: string});
  'state': (_google_protobuf_Value__Output | null);
  'max_retries': (number);
  'active': (boolean);
  'description'?: (string);
  'created_at': (string);
  'updated_at': (string);
  'deleted_at'?: (string);
  'all_organizations': (boolean);
  '_organization_id'?: "organization_id";
  '_description'?: "description";
  '_deleted_at'?: "deleted_at";
}
