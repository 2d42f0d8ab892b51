// Original file: switchyard/admin/v1/invitations.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateInvitationRequest as _switchyard_admin_v1_CreateInvitationRequest, CreateInvitationRequest__Output as _switchyard_admin_v1_CreateInvitationRequest__Output } from '../../../switchyard/admin/v1/CreateInvitationRequest.js';
import type { GetInvitationRequest as _switchyard_admin_v1_GetInvitationRequest, GetInvitationRequest__Output as _switchyard_admin_v1_GetInvitationRequest__Output } from '../../../switchyard/admin/v1/GetInvitationRequest.js';
import type { Invitation as _switchyard_admin_v1_Invitation, Invitation__Output as _switchyard_admin_v1_Invitation__Output } from '../../../switchyard/admin/v1/Invitation.js';
import type { ListInvitationsRequest as _switchyard_admin_v1_ListInvitationsRequest, ListInvitationsRequest__Output as _switchyard_admin_v1_ListInvitationsRequest__Output } from '../../../switchyard/admin/v1/ListInvitationsRequest.js';
import type { ListInvitationsResponse as _switchyard_admin_v1_ListInvitationsResponse, ListInvitationsResponse__Output as _switchyard_admin_v1_ListInvitationsResponse__Output } from '../../../switchyard/admin/v1/ListInvitationsResponse.js';
import type { ResendInvitationRequest as _switchyard_admin_v1_ResendInvitationRequest, ResendInvitationRequest__Output as _switchyard_admin_v1_ResendInvitationRequest__Output } from '../../../switchyard/admin/v1/ResendInvitationRequest.js';
import type { RevokeInvitationRequest as _switchyard_admin_v1_RevokeInvitationRequest, RevokeInvitationRequest__Output as _switchyard_admin_v1_RevokeInvitationRequest__Output } from '../../../switchyard/admin/v1/RevokeInvitationRequest.js';

export interface InvitationServiceClient extends grpc.Client {
  CreateInvitation(argument: _switchyard_admin_v1_CreateInvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  CreateInvitation(argument: _switchyard_admin_v1_CreateInvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  CreateInvitation(argument: _switchyard_admin_v1_CreateInvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  CreateInvitation(argument: _switchyard_admin_v1_CreateInvitationRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  createInvitation(argument: _switchyard_admin_v1_CreateInvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  createInvitation(argument: _switchyard_admin_v1_CreateInvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  createInvitation(argument: _switchyard_admin_v1_CreateInvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  createInvitation(argument: _switchyard_admin_v1_CreateInvitationRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  
  GetInvitation(argument: _switchyard_admin_v1_GetInvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  GetInvitation(argument: _switchyard_admin_v1_GetInvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  GetInvitation(argument: _switchyard_admin_v1_GetInvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  GetInvitation(argument: _switchyard_admin_v1_GetInvitationRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  getInvitation(argument: _switchyard_admin_v1_GetInvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  getInvitation(argument: _switchyard_admin_v1_GetInvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  getInvitation(argument: _switchyard_admin_v1_GetInvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  getInvitation(argument: _switchyard_admin_v1_GetInvitationRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  
  ListInvitations(argument: _switchyard_admin_v1_ListInvitationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListInvitationsResponse__Output>): grpc.ClientUnaryCall;
  ListInvitations(argument: _switchyard_admin_v1_ListInvitationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListInvitationsResponse__Output>): grpc.ClientUnaryCall;
  ListInvitations(argument: _switchyard_admin_v1_ListInvitationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListInvitationsResponse__Output>): grpc.ClientUnaryCall;
  ListInvitations(argument: _switchyard_admin_v1_ListInvitationsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListInvitationsResponse__Output>): grpc.ClientUnaryCall;
  listInvitations(argument: _switchyard_admin_v1_ListInvitationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListInvitationsResponse__Output>): grpc.ClientUnaryCall;
  listInvitations(argument: _switchyard_admin_v1_ListInvitationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListInvitationsResponse__Output>): grpc.ClientUnaryCall;
  listInvitations(argument: _switchyard_admin_v1_ListInvitationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListInvitationsResponse__Output>): grpc.ClientUnaryCall;
  listInvitations(argument: _switchyard_admin_v1_ListInvitationsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListInvitationsResponse__Output>): grpc.ClientUnaryCall;
  
  ResendInvitation(argument: _switchyard_admin_v1_ResendInvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  ResendInvitation(argument: _switchyard_admin_v1_ResendInvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  ResendInvitation(argument: _switchyard_admin_v1_ResendInvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  ResendInvitation(argument: _switchyard_admin_v1_ResendInvitationRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  resendInvitation(argument: _switchyard_admin_v1_ResendInvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  resendInvitation(argument: _switchyard_admin_v1_ResendInvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  resendInvitation(argument: _switchyard_admin_v1_ResendInvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  resendInvitation(argument: _switchyard_admin_v1_ResendInvitationRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  
  RevokeInvitation(argument: _switchyard_admin_v1_RevokeInvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  RevokeInvitation(argument: _switchyard_admin_v1_RevokeInvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  RevokeInvitation(argument: _switchyard_admin_v1_RevokeInvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  RevokeInvitation(argument: _switchyard_admin_v1_RevokeInvitationRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  revokeInvitation(argument: _switchyard_admin_v1_RevokeInvitationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  revokeInvitation(argument: _switchyard_admin_v1_RevokeInvitationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  revokeInvitation(argument: _switchyard_admin_v1_RevokeInvitationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  revokeInvitation(argument: _switchyard_admin_v1_RevokeInvitationRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Invitation__Output>): grpc.ClientUnaryCall;
  
}

export interface InvitationServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateInvitation: grpc.handleUnaryCall<_switchyard_admin_v1_CreateInvitationRequest__Output, _switchyard_admin_v1_Invitation>;
  
  GetInvitation: grpc.handleUnaryCall<_switchyard_admin_v1_GetInvitationRequest__Output, _switchyard_admin_v1_Invitation>;
  
  ListInvitations: grpc.handleUnaryCall<_switchyard_admin_v1_ListInvitationsRequest__Output, _switchyard_admin_v1_ListInvitationsResponse>;
  
  ResendInvitation: grpc.handleUnaryCall<_switchyard_admin_v1_ResendInvitationRequest__Output, _switchyard_admin_v1_Invitation>;
  
  RevokeInvitation: grpc.handleUnaryCall<_switchyard_admin_v1_RevokeInvitationRequest__Output, _switchyard_admin_v1_Invitation>;
  
}

export interface InvitationServiceDefinition extends grpc.ServiceDefinition {
  CreateInvitation: MethodDefinition<_switchyard_admin_v1_CreateInvitationRequest, _switchyard_admin_v1_Invitation, _switchyard_admin_v1_CreateInvitationRequest__Output, _switchyard_admin_v1_Invitation__Output>
  GetInvitation: MethodDefinition<_switchyard_admin_v1_GetInvitationRequest, _switchyard_admin_v1_Invitation, _switchyard_admin_v1_GetInvitationRequest__Output, _switchyard_admin_v1_Invitation__Output>
  ListInvitations: MethodDefinition<_switchyard_admin_v1_ListInvitationsRequest, _switchyard_admin_v1_ListInvitationsResponse, _switchyard_admin_v1_ListInvitationsRequest__Output, _switchyard_admin_v1_ListInvitationsResponse__Output>
  ResendInvitation: MethodDefinition<_switchyard_admin_v1_ResendInvitationRequest, _switchyard_admin_v1_Invitation, _switchyard_admin_v1_ResendInvitationRequest__Output, _switchyard_admin_v1_Invitation__Output>
  RevokeInvitation: MethodDefinition<_switchyard_admin_v1_RevokeInvitationRequest, _switchyard_admin_v1_Invitation, _switchyard_admin_v1_RevokeInvitationRequest__Output, _switchyard_admin_v1_Invitation__Output>
}
