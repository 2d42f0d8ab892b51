import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CreatePortalSessionRequest as _switchyard_admin_v1_CreatePortalSessionRequest, CreatePortalSessionRequest__Output as _switchyard_admin_v1_CreatePortalSessionRequest__Output } from './switchyard/admin/v1/CreatePortalSessionRequest.js';
import type { PortalServiceClient as _switchyard_admin_v1_PortalServiceClient, PortalServiceDefinition as _switchyard_admin_v1_PortalServiceDefinition } from './switchyard/admin/v1/PortalService.js';
import type { PortalSession as _switchyard_admin_v1_PortalSession, PortalSession__Output as _switchyard_admin_v1_PortalSession__Output } from './switchyard/admin/v1/PortalSession.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchyard: {
    admin: {
      v1: {
        CreatePortalSessionRequest: MessageTypeDefinition<_switchyard_admin_v1_CreatePortalSessionRequest, _switchyard_admin_v1_CreatePortalSessionRequest__Output>
        PortalService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_PortalServiceClient> & { service: _switchyard_admin_v1_PortalServiceDefinition }
        PortalSession: MessageTypeDefinition<_switchyard_admin_v1_PortalSession, _switchyard_admin_v1_PortalSession__Output>
      }
    }
  }
}

