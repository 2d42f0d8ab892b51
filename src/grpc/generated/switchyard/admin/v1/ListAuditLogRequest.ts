// Original file: switchyard/admin/v1/audit.proto


export interface ListAuditLogRequest {
  'organization'?: (string);
  'actor'?: (string);
  'action'?: (string);
  'since'?: (string);
  'until'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  '_actor'?: "actor";
  '_action'?: "action";
  '_since'?: "since";
  '_until'?: "until";
}

export interface ListAuditLogRequest__Output {
  'organization': (string);
  'actor'?: (string);
  'action'?: (string);
  'since'?: (string);
  'until'?: (string);
  'limit': (number);
  'cursor': (string);
  '_actor'?: "actor";
  '_action'?: "action";
  '_since'?: "since";
  '_until'?: "until";
}
