// Original file: switchyard/admin/v1/workflows.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';

export interface WorkflowNode {
  'key'?: (string);
  'kind'?: (string);
  'modality'?: (string);
  'tier'?: (string);
  'model'?: (string);
  'input'?: (_google_protobuf_Struct | null);
  'params'?: (_google_protobuf_Struct | null);
  'needs'?: (string)[];
  '_modality'?: "modality";
  '_tier'?: "tier";
  '_model'?: "model";
}

export interface WorkflowNode__Output {
  'key': (string);
  'kind': (string);
  'modality'?: (string);
  'tier'?: (string);
  'model'?: (string);
  'input': (_google_protobuf_Struct__Output | null);
  'params': (_google_protobuf_Struct__Output | null);
  'needs': (string)[];
  '_modality'?: "modality";
  '_tier'?: "tier";
  '_model'?: "model";
}
