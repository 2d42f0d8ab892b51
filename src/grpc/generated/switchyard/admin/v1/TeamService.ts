// Original file: switchyard/admin/v1/teams.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateTeamRequest as _switchyard_admin_v1_CreateTeamRequest, CreateTeamRequest__Output as _switchyard_admin_v1_CreateTeamRequest__Output } from '../../../switchyard/admin/v1/CreateTeamRequest.js';
import type { DeleteTeamRequest as _switchyard_admin_v1_DeleteTeamRequest, DeleteTeamRequest__Output as _switchyard_admin_v1_DeleteTeamRequest__Output } from '../../../switchyard/admin/v1/DeleteTeamRequest.js';
import type { GetTeamRequest as _switchyard_admin_v1_GetTeamRequest, GetTeamRequest__Output as _switchyard_admin_v1_GetTeamRequest__Output } from '../../../switchyard/admin/v1/GetTeamRequest.js';
import type { ListTeamsRequest as _switchyard_admin_v1_ListTeamsRequest, ListTeamsRequest__Output as _switchyard_admin_v1_ListTeamsRequest__Output } from '../../../switchyard/admin/v1/ListTeamsRequest.js';
import type { ListTeamsResponse as _switchyard_admin_v1_ListTeamsResponse, ListTeamsResponse__Output as _switchyard_admin_v1_ListTeamsResponse__Output } from '../../../switchyard/admin/v1/ListTeamsResponse.js';
import type { Team as _switchyard_admin_v1_Team, Team__Output as _switchyard_admin_v1_Team__Output } from '../../../switchyard/admin/v1/Team.js';
import type { UpdateTeamRequest as _switchyard_admin_v1_UpdateTeamRequest, UpdateTeamRequest__Output as _switchyard_admin_v1_UpdateTeamRequest__Output } from '../../../switchyard/admin/v1/UpdateTeamRequest.js';

export interface TeamServiceClient extends grpc.Client {
  CreateTeam(argument: _switchyard_admin_v1_CreateTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  CreateTeam(argument: _switchyard_admin_v1_CreateTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  CreateTeam(argument: _switchyard_admin_v1_CreateTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  CreateTeam(argument: _switchyard_admin_v1_CreateTeamRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  createTeam(argument: _switchyard_admin_v1_CreateTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  createTeam(argument: _switchyard_admin_v1_CreateTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  createTeam(argument: _switchyard_admin_v1_CreateTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  createTeam(argument: _switchyard_admin_v1_CreateTeamRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  
  DeleteTeam(argument: _switchyard_admin_v1_DeleteTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  DeleteTeam(argument: _switchyard_admin_v1_DeleteTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  DeleteTeam(argument: _switchyard_admin_v1_DeleteTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  DeleteTeam(argument: _switchyard_admin_v1_DeleteTeamRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  deleteTeam(argument: _switchyard_admin_v1_DeleteTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  deleteTeam(argument: _switchyard_admin_v1_DeleteTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  deleteTeam(argument: _switchyard_admin_v1_DeleteTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  deleteTeam(argument: _switchyard_admin_v1_DeleteTeamRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  
  GetTeam(argument: _switchyard_admin_v1_GetTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  GetTeam(argument: _switchyard_admin_v1_GetTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  GetTeam(argument: _switchyard_admin_v1_GetTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  GetTeam(argument: _switchyard_admin_v1_GetTeamRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  getTeam(argument: _switchyard_admin_v1_GetTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  getTeam(argument: _switchyard_admin_v1_GetTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  getTeam(argument: _switchyard_admin_v1_GetTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  getTeam(argument: _switchyard_admin_v1_GetTeamRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  
  ListTeams(argument: _switchyard_admin_v1_ListTeamsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  ListTeams(argument: _switchyard_admin_v1_ListTeamsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  ListTeams(argument: _switchyard_admin_v1_ListTeamsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  ListTeams(argument: _switchyard_admin_v1_ListTeamsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  listTeams(argument: _switchyard_admin_v1_ListTeamsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  listTeams(argument: _switchyard_admin_v1_ListTeamsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  listTeams(argument: _switchyard_admin_v1_ListTeamsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  listTeams(argument: _switchyard_admin_v1_ListTeamsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListTeamsResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateTeam(argument: _switchyard_admin_v1_UpdateTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  UpdateTeam(argument: _switchyard_admin_v1_UpdateTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  UpdateTeam(argument: _switchyard_admin_v1_UpdateTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  UpdateTeam(argument: _switchyard_admin_v1_UpdateTeamRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  updateTeam(argument: _switchyard_admin_v1_UpdateTeamRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  updateTeam(argument: _switchyard_admin_v1_UpdateTeamRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  updateTeam(argument: _switchyard_admin_v1_UpdateTeamRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  updateTeam(argument: _switchyard_admin_v1_UpdateTeamRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Team__Output>): grpc.ClientUnaryCall;
  
}

export interface TeamServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateTeam: grpc.handleUnaryCall<_switchyard_admin_v1_CreateTeamRequest__Output, _switchyard_admin_v1_Team>;
  
  DeleteTeam: grpc.handleUnaryCall<_switchyard_admin_v1_DeleteTeamRequest__Output, _switchyard_admin_v1_Team>;
  
  GetTeam: grpc.handleUnaryCall<_switchyard_admin_v1_GetTeamRequest__Output, _switchyard_admin_v1_Team>;
  
  ListTeams: grpc.handleUnaryCall<_switchyard_admin_v1_ListTeamsRequest__Output, _switchyard_admin_v1_ListTeamsResponse>;
  
  UpdateTeam: grpc.handleUnaryCall<_switchyard_admin_v1_UpdateTeamRequest__Output, _switchyard_admin_v1_Team>;
  
}

export interface TeamServiceDefinition extends grpc.ServiceDefinition {
  CreateTeam: MethodDefinition<_switchyard_admin_v1_CreateTeamRequest, _switchyard_admin_v1_Team, _switchyard_admin_v1_CreateTeamRequest__Output, _switchyard_admin_v1_Team__Output>
  DeleteTeam: MethodDefinition<_switchyard_admin_v1_DeleteTeamRequest, _switchyard_admin_v1_Team, _switchyard_admin_v1_DeleteTeamRequest__Output, _switchyard_admin_v1_Team__Output>
  GetTeam: MethodDefinition<_switchyard_admin_v1_GetTeamRequest, _switchyard_admin_v1_Team, _switchyard_admin_v1_GetTeamRequest__Output, _switchyard_admin_v1_Team__Output>
  ListTeams: MethodDefinition<_switchyard_admin_v1_ListTeamsRequest, _switchyard_admin_v1_ListTeamsResponse, _switchyard_admin_v1_ListTeamsRequest__Output, _switchyard_admin_v1_ListTeamsResponse__Output>
  UpdateTeam: MethodDefinition<_switchyard_admin_v1_UpdateTeamRequest, _switchyard_admin_v1_Team, _switchyard_admin_v1_UpdateTeamRequest__Output, _switchyard_admin_v1_Team__Output>
}
