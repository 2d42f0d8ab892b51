// Original file: switchyard/admin/v1/invitations.proto


export interface GetInvitationRequest {
  'id'?: (string);
}

export interface GetInvitationRequest__Output {
  'id': (string);
}
