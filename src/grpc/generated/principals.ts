import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { GetPrincipalRequest as _switchyard_admin_v1_GetPrincipalRequest, GetPrincipalRequest__Output as _switchyard_admin_v1_GetPrincipalRequest__Output } from './switchyard/admin/v1/GetPrincipalRequest.js';
import type { LinkPrincipalRequest as _switchyard_admin_v1_LinkPrincipalRequest, LinkPrincipalRequest__Output as _switchyard_admin_v1_LinkPrincipalRequest__Output } from './switchyard/admin/v1/LinkPrincipalRequest.js';
import type { Principal as _switchyard_admin_v1_Principal, Principal__Output as _switchyard_admin_v1_Principal__Output } from './switchyard/admin/v1/Principal.js';
import type { PrincipalDetails as _switchyard_admin_v1_PrincipalDetails, PrincipalDetails__Output as _switchyard_admin_v1_PrincipalDetails__Output } from './switchyard/admin/v1/PrincipalDetails.js';
import type { PrincipalOrganization as _switchyard_admin_v1_PrincipalOrganization, PrincipalOrganization__Output as _switchyard_admin_v1_PrincipalOrganization__Output } from './switchyard/admin/v1/PrincipalOrganization.js';
import type { PrincipalServiceClient as _switchyard_admin_v1_PrincipalServiceClient, PrincipalServiceDefinition as _switchyard_admin_v1_PrincipalServiceDefinition } from './switchyard/admin/v1/PrincipalService.js';
import type { PrincipalTeamRole as _switchyard_admin_v1_PrincipalTeamRole, PrincipalTeamRole__Output as _switchyard_admin_v1_PrincipalTeamRole__Output } from './switchyard/admin/v1/PrincipalTeamRole.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchyard: {
    admin: {
      v1: {
        GetPrincipalRequest: MessageTypeDefinition<_switchyard_admin_v1_GetPrincipalRequest, _switchyard_admin_v1_GetPrincipalRequest__Output>
        LinkPrincipalRequest: MessageTypeDefinition<_switchyard_admin_v1_LinkPrincipalRequest, _switchyard_admin_v1_LinkPrincipalRequest__Output>
        Principal: MessageTypeDefinition<_switchyard_admin_v1_Principal, _switchyard_admin_v1_Principal__Output>
        PrincipalDetails: MessageTypeDefinition<_switchyard_admin_v1_PrincipalDetails, _switchyard_admin_v1_PrincipalDetails__Output>
        PrincipalOrganization: MessageTypeDefinition<_switchyard_admin_v1_PrincipalOrganization, _switchyard_admin_v1_PrincipalOrganization__Output>
        PrincipalService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_PrincipalServiceClient> & { service: _switchyard_admin_v1_PrincipalServiceDefinition }
        PrincipalTeamRole: MessageTypeDefinition<_switchyard_admin_v1_PrincipalTeamRole, _switchyard_admin_v1_PrincipalTeamRole__Output>
      }
    }
  }
}

