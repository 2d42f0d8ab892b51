// Original file: switchyard/admin/v1/portal.proto


export interface CreatePortalSessionRequest {
  'organization'?: (string);
  'ttl_seconds'?: (number);
  'capabilities'?: (string)[];
  '_ttl_seconds'?: "ttl_seconds";
}

export interface CreatePortalSessionRequest__Output {
  'organization': (string);
  'ttl_seconds'?: (number);
  'capabilities': (string)[];
  '_ttl_seconds'?: "ttl_seconds";
}
