import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CreateTeamRequest as _switchyard_admin_v1_CreateTeamRequest, CreateTeamRequest__Output as _switchyard_admin_v1_CreateTeamRequest__Output } from './switchyard/admin/v1/CreateTeamRequest.js';
import type { DeleteTeamRequest as _switchyard_admin_v1_DeleteTeamRequest, DeleteTeamRequest__Output as _switchyard_admin_v1_DeleteTeamRequest__Output } from './switchyard/admin/v1/DeleteTeamRequest.js';
import type { GetTeamRequest as _switchyard_admin_v1_GetTeamRequest, GetTeamRequest__Output as _switchyard_admin_v1_GetTeamRequest__Output } from './switchyard/admin/v1/GetTeamRequest.js';
import type { ListTeamsRequest as _switchyard_admin_v1_ListTeamsRequest, ListTeamsRequest__Output as _switchyard_admin_v1_ListTeamsRequest__Output } from './switchyard/admin/v1/ListTeamsRequest.js';
import type { ListTeamsResponse as _switchyard_admin_v1_ListTeamsResponse, ListTeamsResponse__Output as _switchyard_admin_v1_ListTeamsResponse__Output } from './switchyard/admin/v1/ListTeamsResponse.js';
import type { Team as _switchyard_admin_v1_Team, Team__Output as _switchyard_admin_v1_Team__Output } from './switchyard/admin/v1/Team.js';
import type { TeamServiceClient as _switchyard_admin_v1_TeamServiceClient, TeamServiceDefinition as _switchyard_admin_v1_TeamServiceDefinition } from './switchyard/admin/v1/TeamService.js';
import type { UpdateTeamRequest as _switchyard_admin_v1_UpdateTeamRequest, UpdateTeamRequest__Output as _switchyard_admin_v1_UpdateTeamRequest__Output } from './switchyard/admin/v1/UpdateTeamRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchyard: {
    admin: {
      v1: {
        CreateTeamRequest: MessageTypeDefinition<_switchyard_admin_v1_CreateTeamRequest, _switchyard_admin_v1_CreateTeamRequest__Output>
        DeleteTeamRequest: MessageTypeDefinition<_switchyard_admin_v1_DeleteTeamRequest, _switchyard_admin_v1_DeleteTeamRequest__Output>
        GetTeamRequest: MessageTypeDefinition<_switchyard_admin_v1_GetTeamRequest, _switchyard_admin_v1_GetTeamRequest__Output>
        ListTeamsRequest: MessageTypeDefinition<_switchyard_admin_v1_ListTeamsRequest, _switchyard_admin_v1_ListTeamsRequest__Output>
        ListTeamsResponse: MessageTypeDefinition<_switchyard_admin_v1_ListTeamsResponse, _switchyard_admin_v1_ListTeamsResponse__Output>
        Team: MessageTypeDefinition<_switchyard_admin_v1_Team, _switchyard_admin_v1_Team__Output>
        TeamService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_TeamServiceClient> & { service: _switchyard_admin_v1_TeamServiceDefinition }
        UpdateTeamRequest: MessageTypeDefinition<_switchyard_admin_v1_UpdateTeamRequest, _switchyard_admin_v1_UpdateTeamRequest__Output>
      }
    }
  }
}

