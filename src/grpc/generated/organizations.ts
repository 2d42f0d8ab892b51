import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AddMemberRequest as _switchyard_admin_v1_AddMemberRequest, AddMemberRequest__Output as _switchyard_admin_v1_AddMemberRequest__Output } from './switchyard/admin/v1/AddMemberRequest.js';
import type { CreateOrganizationRequest as _switchyard_admin_v1_CreateOrganizationRequest, CreateOrganizationRequest__Output as _switchyard_admin_v1_CreateOrganizationRequest__Output } from './switchyard/admin/v1/CreateOrganizationRequest.js';
import type { CreateOrganizationResponse as _switchyard_admin_v1_CreateOrganizationResponse, CreateOrganizationResponse__Output as _switchyard_admin_v1_CreateOrganizationResponse__Output } from './switchyard/admin/v1/CreateOrganizationResponse.js';
import type { GetOrganizationRequest as _switchyard_admin_v1_GetOrganizationRequest, GetOrganizationRequest__Output as _switchyard_admin_v1_GetOrganizationRequest__Output } from './switchyard/admin/v1/GetOrganizationRequest.js';
import type { ListMembersRequest as _switchyard_admin_v1_ListMembersRequest, ListMembersRequest__Output as _switchyard_admin_v1_ListMembersRequest__Output } from './switchyard/admin/v1/ListMembersRequest.js';
import type { ListMembersResponse as _switchyard_admin_v1_ListMembersResponse, ListMembersResponse__Output as _switchyard_admin_v1_ListMembersResponse__Output } from './switchyard/admin/v1/ListMembersResponse.js';
import type { ListOrganizationsRequest as _switchyard_admin_v1_ListOrganizationsRequest, ListOrganizationsRequest__Output as _switchyard_admin_v1_ListOrganizationsRequest__Output } from './switchyard/admin/v1/ListOrganizationsRequest.js';
import type { ListOrganizationsResponse as _switchyard_admin_v1_ListOrganizationsResponse, ListOrganizationsResponse__Output as _switchyard_admin_v1_ListOrganizationsResponse__Output } from './switchyard/admin/v1/ListOrganizationsResponse.js';
import type { MemberServiceClient as _switchyard_admin_v1_MemberServiceClient, MemberServiceDefinition as _switchyard_admin_v1_MemberServiceDefinition } from './switchyard/admin/v1/MemberService.js';
import type { Membership as _switchyard_admin_v1_Membership, Membership__Output as _switchyard_admin_v1_Membership__Output } from './switchyard/admin/v1/Membership.js';
import type { Organization as _switchyard_admin_v1_Organization, Organization__Output as _switchyard_admin_v1_Organization__Output } from './switchyard/admin/v1/Organization.js';
import type { OrganizationServiceClient as _switchyard_admin_v1_OrganizationServiceClient, OrganizationServiceDefinition as _switchyard_admin_v1_OrganizationServiceDefinition } from './switchyard/admin/v1/OrganizationService.js';
import type { RemoveMemberRequest as _switchyard_admin_v1_RemoveMemberRequest, RemoveMemberRequest__Output as _switchyard_admin_v1_RemoveMemberRequest__Output } from './switchyard/admin/v1/RemoveMemberRequest.js';
import type { UpdateMemberRoleRequest as _switchyard_admin_v1_UpdateMemberRoleRequest, UpdateMemberRoleRequest__Output as _switchyard_admin_v1_UpdateMemberRoleRequest__Output } from './switchyard/admin/v1/UpdateMemberRoleRequest.js';
import type { UpdateOrganizationRequest as _switchyard_admin_v1_UpdateOrganizationRequest, UpdateOrganizationRequest__Output as _switchyard_admin_v1_UpdateOrganizationRequest__Output } from './switchyard/admin/v1/UpdateOrganizationRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchyard: {
    admin: {
      v1: {
        AddMemberRequest: MessageTypeDefinition<_switchyard_admin_v1_AddMemberRequest, _switchyard_admin_v1_AddMemberRequest__Output>
        CreateOrganizationRequest: MessageTypeDefinition<_switchyard_admin_v1_CreateOrganizationRequest, _switchyard_admin_v1_CreateOrganizationRequest__Output>
        CreateOrganizationResponse: MessageTypeDefinition<_switchyard_admin_v1_CreateOrganizationResponse, _switchyard_admin_v1_CreateOrganizationResponse__Output>
        GetOrganizationRequest: MessageTypeDefinition<_switchyard_admin_v1_GetOrganizationRequest, _switchyard_admin_v1_GetOrganizationRequest__Output>
        ListMembersRequest: MessageTypeDefinition<_switchyard_admin_v1_ListMembersRequest, _switchyard_admin_v1_ListMembersRequest__Output>
        ListMembersResponse: MessageTypeDefinition<_switchyard_admin_v1_ListMembersResponse, _switchyard_admin_v1_ListMembersResponse__Output>
        ListOrganizationsRequest: MessageTypeDefinition<_switchyard_admin_v1_ListOrganizationsRequest, _switchyard_admin_v1_ListOrganizationsRequest__Output>
        ListOrganizationsResponse: MessageTypeDefinition<_switchyard_admin_v1_ListOrganizationsResponse, _switchyard_admin_v1_ListOrganizationsResponse__Output>
        MemberService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_MemberServiceClient> & { service: _switchyard_admin_v1_MemberServiceDefinition }
        Membership: MessageTypeDefinition<_switchyard_admin_v1_Membership, _switchyard_admin_v1_Membership__Output>
        Organization: MessageTypeDefinition<_switchyard_admin_v1_Organization, _switchyard_admin_v1_Organization__Output>
        OrganizationService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_OrganizationServiceClient> & { service: _switchyard_admin_v1_OrganizationServiceDefinition }
        RemoveMemberRequest: MessageTypeDefinition<_switchyard_admin_v1_RemoveMemberRequest, _switchyard_admin_v1_RemoveMemberRequest__Output>
        UpdateMemberRoleRequest: MessageTypeDefinition<_switchyard_admin_v1_UpdateMemberRoleRequest, _switchyard_admin_v1_UpdateMemberRoleRequest__Output>
        UpdateOrganizationRequest: MessageTypeDefinition<_switchyard_admin_v1_UpdateOrganizationRequest, _switchyard_admin_v1_UpdateOrganizationRequest__Output>
      }
    }
  }
}

