// Original file: switchyard/admin/v1/audit.proto


export interface AuditTarget {
  'type'?: (string);
  'id'?: (string);
}

export interface AuditTarget__Output {
  'type': (string);
  'id': (string);
}
