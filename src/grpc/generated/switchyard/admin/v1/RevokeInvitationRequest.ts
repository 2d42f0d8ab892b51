// Original file: switchyard/admin/v1/invitations.proto


export interface RevokeInvitationRequest {
  'id'?: (string);
}

export interface RevokeInvitationRequest__Output {
  'id': (string);
}
