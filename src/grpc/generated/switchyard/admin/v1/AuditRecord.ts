// Original file: switchyard/admin/v1/audit.proto

import type { AuditActor as _switchyard_admin_v1_AuditActor, AuditActor__Output as _switchyard_admin_v1_AuditActor__Output } from '../../../switchyard/admin/v1/AuditActor.js';
import type { AuditTarget as _switchyard_admin_v1_AuditTarget, AuditTarget__Output as _switchyard_admin_v1_AuditTarget__Output } from '../../../switchyard/admin/v1/AuditTarget.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';

export interface AuditRecord {
  'id'?: (string);
  'organization_id'?: (string);
  'actor'?: (_switchyard_admin_v1_AuditActor | null);
  'action'?: (string);
  'target'?: (_switchyard_admin_v1_AuditTarget | null);
  'before'?: (_google_protobuf_Struct | null);
  'after'?: (_google_protobuf_Struct | null);
  'timestamp'?: (string);
  'request_id'?: (string);
  'source'?: (string);
  '_organization_id'?: "organization_id";
  '_request_id'?: "request_id";
}

export interface AuditRecord__Output {
  'id': (string);
  'organization_id'?: (string);
  'actor': (_switchyard_admin_v1_AuditActor__Output | null);
  'action': (string);
  'target': (_switchyard_admin_v1_AuditTarget__Output | null);
  'before': (_google_protobuf_Struct__Output | null);
  'after': (_google_protobuf_Struct__Output | null);
  'timestamp': (string);
  'request_id'?: (string);
  'source': (string);
  '_organization_id'?: "organization_id";
  '_request_id'?: "request_id";
}
