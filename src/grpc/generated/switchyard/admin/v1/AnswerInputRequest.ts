// Original file: switchyard/admin/v1/workflows.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';

export interface AnswerInputRequest {
  'id'?: (string);
  'organization'?: (string);
  'node_key'?: (string);
  'input'?: (_google_protobuf_Struct | null);
  '_organization'?: "organization";
}

export interface AnswerInputRequest__Output {
  'id': (string);
  'organization'?: (string);
  'node_key': (string);
  'input': (_google_protobuf_Struct__Output | null);
  '_organization'?: "organization";
}
