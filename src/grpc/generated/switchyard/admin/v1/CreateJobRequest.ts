// Original file: switchyard/admin/v1/jobs.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value.js';

export interface CreateJobRequest {
  'organization'?: (string);
  'modality'?: (string);
  'tier'?: (string);
  'model'?: (string);
  'input'?: (_google_protobuf_Struct | null);
  'params'?: (_google_protobuf_Struct | null);
  'state'?: (_google_protobuf_Value | null);
  '_tier'?: "tier";
  '_model'?: "model";
}

export interface CreateJobRequest__Output {
  'organization': (string);
  'modality': (string);
  'tier'?: (string);
  'model'?: (string);
  'input': (_google_protobuf_Struct__Output | null);
  'params': (_google_protobuf_Struct__Output | null);
  'state': (_google_protobuf_Value__Output | null);
  '_tier'?: "tier";
  '_model'?: "model";
}
