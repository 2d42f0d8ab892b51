// Original file: switchyard/admin/v1/portal.proto


export interface PortalSession {
  'id'?: (string);
  'organization_id'?: (string);
  'url'?: (string);
  'expires_at'?: (string);
  'capabilities'?: (string)[];
}

export interface PortalSession__Output {
  'id': (string);
  'organization_id': (string);
  'url': (string);
  'expires_at': (string);
  'capabilities': (string)[];
}
