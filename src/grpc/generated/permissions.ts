import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CheckPermissionRequest as _switchyard_admin_v1_CheckPermissionRequest, CheckPermissionRequest__Output as _switchyard_admin_v1_CheckPermissionRequest__Output } from './switchyard/admin/v1/CheckPermissionRequest.js';
import type { PermissionCheck as _switchyard_admin_v1_PermissionCheck, PermissionCheck__Output as _switchyard_admin_v1_PermissionCheck__Output } from './switchyard/admin/v1/PermissionCheck.js';
import type { PermissionServiceClient as _switchyard_admin_v1_PermissionServiceClient, PermissionServiceDefinition as _switchyard_admin_v1_PermissionServiceDefinition } from './switchyard/admin/v1/PermissionService.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchyard: {
    admin: {
      v1: {
        CheckPermissionRequest: MessageTypeDefinition<_switchyard_admin_v1_CheckPermissionRequest, _switchyard_admin_v1_CheckPermissionRequest__Output>
        PermissionCheck: MessageTypeDefinition<_switchyard_admin_v1_PermissionCheck, _switchyard_admin_v1_PermissionCheck__Output>
        PermissionService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_PermissionServiceClient> & { service: _switchyard_admin_v1_PermissionServiceDefinition }
      }
    }
  }
}

