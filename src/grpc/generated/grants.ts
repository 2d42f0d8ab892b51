import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CreateGrantRequest as _switchyard_admin_v1_CreateGrantRequest, CreateGrantRequest__Output as _switchyard_admin_v1_CreateGrantRequest__Output } from './switchyard/admin/v1/CreateGrantRequest.js';
import type { DeleteGrantRequest as _switchyard_admin_v1_DeleteGrantRequest, DeleteGrantRequest__Output as _switchyard_admin_v1_DeleteGrantRequest__Output } from './switchyard/admin/v1/DeleteGrantRequest.js';
import type { Grant as _switchyard_admin_v1_Grant, Grant__Output as _switchyard_admin_v1_Grant__Output } from './switchyard/admin/v1/Grant.js';
import type { GrantServiceClient as _switchyard_admin_v1_GrantServiceClient, GrantServiceDefinition as _switchyard_admin_v1_GrantServiceDefinition } from './switchyard/admin/v1/GrantService.js';
import type { ListGrantsRequest as _switchyard_admin_v1_ListGrantsRequest, ListGrantsRequest__Output as _switchyard_admin_v1_ListGrantsRequest__Output } from './switchyard/admin/v1/ListGrantsRequest.js';
import type { ListGrantsResponse as _switchyard_admin_v1_ListGrantsResponse, ListGrantsResponse__Output as _switchyard_admin_v1_ListGrantsResponse__Output } from './switchyard/admin/v1/ListGrantsResponse.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchyard: {
    admin: {
      v1: {
        CreateGrantRequest: MessageTypeDefinition<_switchyard_admin_v1_CreateGrantRequest, _switchyard_admin_v1_CreateGrantRequest__Output>
        DeleteGrantRequest: MessageTypeDefinition<_switchyard_admin_v1_DeleteGrantRequest, _switchyard_admin_v1_DeleteGrantRequest__Output>
        Grant: MessageTypeDefinition<_switchyard_admin_v1_Grant, _switchyard_admin_v1_Grant__Output>
        GrantService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_GrantServiceClient> & { service: _switchyard_admin_v1_GrantServiceDefinition }
        ListGrantsRequest: MessageTypeDefinition<_switchyard_admin_v1_ListGrantsRequest, _switchyard_admin_v1_ListGrantsRequest__Output>
        ListGrantsResponse: MessageTypeDefinition<_switchyard_admin_v1_ListGrantsResponse, _switchyard_admin_v1_ListGrantsResponse__Output>
      }
    }
  }
}

