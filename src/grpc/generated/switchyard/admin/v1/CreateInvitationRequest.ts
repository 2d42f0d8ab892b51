// Original file: switchyard/admin/v1/invitations.proto


export interface CreateInvitationRequest {
  'organization'?: (string);
  'email'?: (string);
  'role'?: (string);
}

export interface CreateInvitationRequest__Output {
  'organization': (string);
  'email': (string);
  'role': (string);
}
