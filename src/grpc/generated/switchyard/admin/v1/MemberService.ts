// Original file: switchyard/admin/v1/members.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AddMemberRequest as _switchyard_admin_v1_AddMemberRequest, AddMemberRequest__Output as _switchyard_admin_v1_AddMemberRequest__Output } from '../../../switchyard/admin/v1/AddMemberRequest.js';
import type { ListMembersRequest as _switchyard_admin_v1_ListMembersRequest, ListMembersRequest__Output as _switchyard_admin_v1_ListMembersRequest__Output } from '../../../switchyard/admin/v1/ListMembersRequest.js';
import type { ListMembersResponse as _switchyard_admin_v1_ListMembersResponse, ListMembersResponse__Output as _switchyard_admin_v1_ListMembersResponse__Output } from '../../../switchyard/admin/v1/ListMembersResponse.js';
import type { Membership as _switchyard_admin_v1_Membership, Membership__Output as _switchyard_admin_v1_Membership__Output } from '../../../switchyard/admin/v1/Membership.js';
import type { RemoveMemberRequest as _switchyard_admin_v1_RemoveMemberRequest, RemoveMemberRequest__Output as _switchyard_admin_v1_RemoveMemberRequest__Output } from '../../../switchyard/admin/v1/RemoveMemberRequest.js';
import type { UpdateMemberRoleRequest as _switchyard_admin_v1_UpdateMemberRoleRequest, UpdateMemberRoleRequest__Output as _switchyard_admin_v1_UpdateMemberRoleRequest__Output } from '../../../switchyard/admin/v1/UpdateMemberRoleRequest.js';

export interface MemberServiceClient extends grpc.Client {
  AddMember(argument: _switchyard_admin_v1_AddMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  AddMember(argument: _switchyard_admin_v1_AddMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  AddMember(argument: _switchyard_admin_v1_AddMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  AddMember(argument: _switchyard_admin_v1_AddMemberRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  addMember(argument: _switchyard_admin_v1_AddMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  addMember(argument: _switchyard_admin_v1_AddMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  addMember(argument: _switchyard_admin_v1_AddMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  addMember(argument: _switchyard_admin_v1_AddMemberRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  
  ListMembers(argument: _switchyard_admin_v1_ListMembersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  ListMembers(argument: _switchyard_admin_v1_ListMembersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  ListMembers(argument: _switchyard_admin_v1_ListMembersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  ListMembers(argument: _switchyard_admin_v1_ListMembersRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  listMembers(argument: _switchyard_admin_v1_ListMembersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  listMembers(argument: _switchyard_admin_v1_ListMembersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  listMembers(argument: _switchyard_admin_v1_ListMembersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  listMembers(argument: _switchyard_admin_v1_ListMembersRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListMembersResponse__Output>): grpc.ClientUnaryCall;
  
  RemoveMember(argument: _switchyard_admin_v1_RemoveMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  RemoveMember(argument: _switchyard_admin_v1_RemoveMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  RemoveMember(argument: _switchyard_admin_v1_RemoveMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  RemoveMember(argument: _switchyard_admin_v1_RemoveMemberRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  removeMember(argument: _switchyard_admin_v1_RemoveMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  removeMember(argument: _switchyard_admin_v1_RemoveMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  removeMember(argument: _switchyard_admin_v1_RemoveMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  removeMember(argument: _switchyard_admin_v1_RemoveMemberRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  
  UpdateMemberRole(argument: _switchyard_admin_v1_UpdateMemberRoleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  UpdateMemberRole(argument: _switchyard_admin_v1_UpdateMemberRoleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  UpdateMemberRole(argument: _switchyard_admin_v1_UpdateMemberRoleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  UpdateMemberRole(argument: _switchyard_admin_v1_UpdateMemberRoleRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  updateMemberRole(argument: _switchyard_admin_v1_UpdateMemberRoleRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  updateMemberRole(argument: _switchyard_admin_v1_UpdateMemberRoleRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  updateMemberRole(argument: _switchyard_admin_v1_UpdateMemberRoleRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  updateMemberRole(argument: _switchyard_admin_v1_UpdateMemberRoleRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Membership__Output>): grpc.ClientUnaryCall;
  
}

export interface MemberServiceHandlers extends grpc.UntypedServiceImplementation {
  AddMember: grpc.handleUnaryCall<_switchyard_admin_v1_AddMemberRequest__Output, _switchyard_admin_v1_Membership>;
  
  ListMembers: grpc.handleUnaryCall<_switchyard_admin_v1_ListMembersRequest__Output, _switchyard_admin_v1_ListMembersResponse>;
  
  RemoveMember: grpc.handleUnaryCall<_switchyard_admin_v1_RemoveMemberRequest__Output, _switchyard_admin_v1_Membership>;
  
  UpdateMemberRole: grpc.handleUnaryCall<_switchyard_admin_v1_UpdateMemberRoleRequest__Output, _switchyard_admin_v1_Membership>;
  
}

export interface MemberServiceDefinition extends grpc.ServiceDefinition {
  AddMember: MethodDefinition<_switchyard_admin_v1_AddMemberRequest, _switchyard_admin_v1_Membership, _switchyard_admin_v1_AddMemberRequest__Output, _switchyard_admin_v1_Membership__Output>
  ListMembers: MethodDefinition<_switchyard_admin_v1_ListMembersRequest, _switchyard_admin_v1_ListMembersResponse, _switchyard_admin_v1_ListMembersRequest__Output, _switchyard_admin_v1_ListMembersResponse__Output>
  RemoveMember: MethodDefinition<_switchyard_admin_v1_RemoveMemberRequest, _switchyard_admin_v1_Membership, _switchyard_admin_v1_RemoveMemberRequest__Output, _switchyard_admin_v1_Membership__Output>
  UpdateMemberRole: MethodDefinition<_switchyard_admin_v1_UpdateMemberRoleRequest, _switchyard_admin_v1_Membership, _switchyard_admin_v1_UpdateMemberRoleRequest__Output, _switchyard_admin_v1_Membership__Output>
}
