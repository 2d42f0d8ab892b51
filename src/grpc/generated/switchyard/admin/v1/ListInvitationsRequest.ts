// Original file: switchyard/admin/v1/invitations.proto


export interface ListInvitationsRequest {
  'organization'?: (string);
  'status'?: (string);
  'limit'?: (number);
  'cursor'?: (string);
  '_status'?: "status";
}

export interface ListInvitationsRequest__Output {
  'organization': (string);
  'status'?: (string);
  'limit': (number);
  'cursor': (string);
  '_status'?: "status";
}
