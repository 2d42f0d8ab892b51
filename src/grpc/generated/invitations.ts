import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CreateInvitationRequest as _switchyard_admin_v1_CreateInvitationRequest, CreateInvitationRequest__Output as _switchyard_admin_v1_CreateInvitationRequest__Output } from './switchyard/admin/v1/CreateInvitationRequest.js';
import type { GetInvitationRequest as _switchyard_admin_v1_GetInvitationRequest, GetInvitationRequest__Output as _switchyard_admin_v1_GetInvitationRequest__Output } from './switchyard/admin/v1/GetInvitationRequest.js';
import type { Invitation as _switchyard_admin_v1_Invitation, Invitation__Output as _switchyard_admin_v1_Invitation__Output } from './switchyard/admin/v1/Invitation.js';
import type { InvitationServiceClient as _switchyard_admin_v1_InvitationServiceClient, InvitationServiceDefinition as _switchyard_admin_v1_InvitationServiceDefinition } from './switchyard/admin/v1/InvitationService.js';
import type { ListInvitationsRequest as _switchyard_admin_v1_ListInvitationsRequest, ListInvitationsRequest__Output as _switchyard_admin_v1_ListInvitationsRequest__Output } from './switchyard/admin/v1/ListInvitationsRequest.js';
import type { ListInvitationsResponse as _switchyard_admin_v1_ListInvitationsResponse, ListInvitationsResponse__Output as _switchyard_admin_v1_ListInvitationsResponse__Output } from './switchyard/admin/v1/ListInvitationsResponse.js';
import type { ResendInvitationRequest as _switchyard_admin_v1_ResendInvitationRequest, ResendInvitationRequest__Output as _switchyard_admin_v1_ResendInvitationRequest__Output } from './switchyard/admin/v1/ResendInvitationRequest.js';
import type { RevokeInvitationRequest as _switchyard_admin_v1_RevokeInvitationRequest, RevokeInvitationRequest__Output as _switchyard_admin_v1_RevokeInvitationRequest__Output } from './switchyard/admin/v1/RevokeInvitationRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchyard: {
    admin: {
      v1: {
        CreateInvitationRequest: MessageTypeDefinition<_switchyard_admin_v1_CreateInvitationRequest, _switchyard_admin_v1_CreateInvitationRequest__Output>
        GetInvitationRequest: MessageTypeDefinition<_switchyard_admin_v1_GetInvitationRequest, _switchyard_admin_v1_GetInvitationRequest__Output>
        Invitation: MessageTypeDefinition<_switchyard_admin_v1_Invitation, _switchyard_admin_v1_Invitation__Output>
        InvitationService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_InvitationServiceClient> & { service: _switchyard_admin_v1_InvitationServiceDefinition }
        ListInvitationsRequest: MessageTypeDefinition<_switchyard_admin_v1_ListInvitationsRequest, _switchyard_admin_v1_ListInvitationsRequest__Output>
        ListInvitationsResponse: MessageTypeDefinition<_switchyard_admin_v1_ListInvitationsResponse, _switchyard_admin_v1_ListInvitationsResponse__Output>
        ResendInvitationRequest: MessageTypeDefinition<_switchyard_admin_v1_ResendInvitationRequest, _switchyard_admin_v1_ResendInvitationRequest__Output>
        RevokeInvitationRequest: MessageTypeDefinition<_switchyard_admin_v1_RevokeInvitationRequest, _switchyard_admin_v1_RevokeInvitationRequest__Output>
      }
    }
  }
}

