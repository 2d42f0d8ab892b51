// Original file: switchyard/admin/v1/invitations.proto

import type { Invitation as _switchyard_admin_v1_Invitation, Invitation__Output as _switchyard_admin_v1_Invitation__Output } from '../../../switchyard/admin/v1/Invitation.js';

export interface ListInvitationsResponse {
  'invitations'?: (_switchyard_admin_v1_Invitation)[];
  'next_cursor'?: (string);
}

export interface ListInvitationsResponse__Output {
  'invitations': (_switchyard_admin_v1_Invitation__Output)[];
  'next_cursor': (string);
}
