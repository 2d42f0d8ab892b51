// Original file: switchyard/admin/v1/events.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';

export interface Event {
  'id'?: (string);
  'kind'?: (string);
  'organization_id'?: (string);
  'workflow_id'?: (string);
  'run_id'?: (string);
  'node_key'?: (string);
  'job_id'?: (string);
  'payload'?: (_google_protobuf_Struct | null);
  'timestamp'?: (string);
  '_workflow_id'?: "workflow_id";
  '_run_id'?: "run_id";
  '_node_key'?: "node_key";
  '_job_id'?: "job_id";
}

export interface Event__Output {
  'id': (string);
  'kind': (string);
  'organization_id': (string);
  'workflow_id'?: (string);
  'run_id'?: (string);
  'node_key'?: (string);
  'job_id'?: (string);
  'payload': (_google_protobuf_Struct__Output | null);
  'timestamp': (string);
  '_workflow_id'?: "workflow_id";
  '_run_id'?: "run_id";
  '_node_key'?: "node_key";
  '_job_id'?: "job_id";
}
