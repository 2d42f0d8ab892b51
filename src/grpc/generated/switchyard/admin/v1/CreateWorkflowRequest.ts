// Original file: switchyard/admin/v1/workflows.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';

export interface CreateWorkflowRequest {
  'organization'?: (string);
  'name'?: (string);
  'nodes'?: (_google_protobuf_Struct)[];
  'schedules'?: (_google_protobuf_Struct)[];
}

export interface CreateWorkflowRequest__Output {
  'organization': (string);
  'name': (string);
  'nodes': (_google_protobuf_Struct__Output)[];
  'schedules': (_google_protobuf_Struct__Output)[];
}
