// Original file: switchyard/admin/v1/audit.proto

import type { AuditRecord as _switchyard_admin_v1_AuditRecord, AuditRecord__Output as _switchyard_admin_v1_AuditRecord__Output } from '../../../switchyard/admin/v1/AuditRecord.js';

export interface ListAuditLogResponse {
  'records'?: (_switchyard_admin_v1_AuditRecord)[];
  'next_cursor'?: (string);
}

export interface ListAuditLogResponse__Output {
  'records': (_switchyard_admin_v1_AuditRecord__Output)[];
  'next_cursor': (string);
}
