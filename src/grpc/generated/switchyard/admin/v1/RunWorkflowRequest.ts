// Original file: switchyard/admin/v1/workflows.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value.js';

export interface RunWorkflowRequest {
  'organization'?: (string);
  'name'?: (string);
  'input'?: (_google_protobuf_Struct | null);
  'state'?: (_google_protobuf_Value | null);
  'priority'?: (number);
  '_priority'?: "priority";
}

export interface RunWorkflowRequest__Output {
  'organization': (string);
  'name': (string);
  'input': (_google_protobuf_Struct__Output | null);
  'state': (_google_protobuf_Value__Output | null);
  'priority'?: (number);
  '_priority'?: "priority";
}
