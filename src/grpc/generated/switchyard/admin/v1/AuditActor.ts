// Original file: switchyard/admin/v1/audit.proto


export interface AuditActor {
  'type'?: (string);
  'principal_id'?: (string);
  'api_key_id'?: (string);
  'method'?: (string);
  'portal_session_id'?: (string);
  '_principal_id'?: "principal_id";
  '_api_key_id'?: "api_key_id";
  '_method'?: "method";
  '_portal_session_id'?: "portal_session_id";
}

export interface AuditActor__Output {
  'type': (string);
  'principal_id'?: (string);
  'api_key_id'?: (string);
  'method'?: (string);
  'portal_session_id'?: (string);
  '_principal_id'?: "principal_id";
  '_api_key_id'?: "api_key_id";
  '_method'?: "method";
  '_portal_session_id'?: "portal_session_id";
}
