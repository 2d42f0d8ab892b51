// Original file: switchyard/admin/v1/workflows.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value.js';

export interface CreateScheduleRequest {
  'organization'?: (string);
  'workflow'?: (string);
  'cron'?: (string);
  'timezone'?: (string);
  'input'?: (_google_protobuf_Struct | null);
  'state'?: (_google_protobuf_Value | null);
  'overlap'?: (string);
  '_timezone'?: "timezone";
  '_overlap'?: "overlap";
}

export interface CreateScheduleRequest__Output {
  'organization': (string);
  'workflow': (string);
  'cron': (string);
  'timezone'?: (string);
  'input': (_google_protobuf_Struct__Output | null);
  'state': (_google_protobuf_Value__Output | null);
  'overlap'?: (string);
  '_timezone'?: "timezone";
  '_overlap'?: "overlap";
}
