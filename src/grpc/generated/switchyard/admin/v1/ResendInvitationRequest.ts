// Original file: switchyard/admin/v1/invitations.proto


export interface ResendInvitationRequest {
  'id'?: (string);
}

export interface ResendInvitationRequest__Output {
  'id': (string);
}
