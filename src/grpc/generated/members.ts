import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AddMemberRequest as _switchyard_admin_v1_AddMemberRequest, AddMemberRequest__Output as _switchyard_admin_v1_AddMemberRequest__Output } from './switchyard/admin/v1/AddMemberRequest.js';
import type { ListMembersRequest as _switchyard_admin_v1_ListMembersRequest, ListMembersRequest__Output as _switchyard_admin_v1_ListMembersRequest__Output } from './switchyard/admin/v1/ListMembersRequest.js';
import type { ListMembersResponse as _switchyard_admin_v1_ListMembersResponse, ListMembersResponse__Output as _switchyard_admin_v1_ListMembersResponse__Output } from './switchyard/admin/v1/ListMembersResponse.js';
import type { MemberServiceClient as _switchyard_admin_v1_MemberServiceClient, MemberServiceDefinition as _switchyard_admin_v1_MemberServiceDefinition } from './switchyard/admin/v1/MemberService.js';
import type { Membership as _switchyard_admin_v1_Membership, Membership__Output as _switchyard_admin_v1_Membership__Output } from './switchyard/admin/v1/Membership.js';
import type { RemoveMemberRequest as _switchyard_admin_v1_RemoveMemberRequest, RemoveMemberRequest__Output as _switchyard_admin_v1_RemoveMemberRequest__Output } from './switchyard/admin/v1/RemoveMemberRequest.js';
import type { UpdateMemberRoleRequest as _switchyard_admin_v1_UpdateMemberRoleRequest, UpdateMemberRoleRequest__Output as _switchyard_admin_v1_UpdateMemberRoleRequest__Output } from './switchyard/admin/v1/UpdateMemberRoleRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchyard: {
    admin: {
      v1: {
        AddMemberRequest: MessageTypeDefinition<_switchyard_admin_v1_AddMemberRequest, _switchyard_admin_v1_AddMemberRequest__Output>
        ListMembersRequest: MessageTypeDefinition<_switchyard_admin_v1_ListMembersRequest, _switchyard_admin_v1_ListMembersRequest__Output>
        ListMembersResponse: MessageTypeDefinition<_switchyard_admin_v1_ListMembersResponse, _switchyard_admin_v1_ListMembersResponse__Output>
        MemberService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_MemberServiceClient> & { service: _switchyard_admin_v1_MemberServiceDefinition }
        Membership: MessageTypeDefinition<_switchyard_admin_v1_Membership, _switchyard_admin_v1_Membership__Output>
        RemoveMemberRequest: MessageTypeDefinition<_switchyard_admin_v1_RemoveMemberRequest, _switchyard_admin_v1_RemoveMemberRequest__Output>
        UpdateMemberRoleRequest: MessageTypeDefinition<_switchyard_admin_v1_UpdateMemberRoleRequest, _switchyard_admin_v1_UpdateMemberRoleRequest__Output>
      }
    }
  }
}

