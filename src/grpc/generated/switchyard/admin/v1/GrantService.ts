// Original file: switchyard/admin/v1/grants.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateGrantRequest as _switchyard_admin_v1_CreateGrantRequest, CreateGrantRequest__Output as _switchyard_admin_v1_CreateGrantRequest__Output } from '../../../switchyard/admin/v1/CreateGrantRequest.js';
import type { DeleteGrantRequest as _switchyard_admin_v1_DeleteGrantRequest, DeleteGrantRequest__Output as _switchyard_admin_v1_DeleteGrantRequest__Output } from '../../../switchyard/admin/v1/DeleteGrantRequest.js';
import type { Grant as _switchyard_admin_v1_Grant, Grant__Output as _switchyard_admin_v1_Grant__Output } from '../../../switchyard/admin/v1/Grant.js';
import type { ListGrantsRequest as _switchyard_admin_v1_ListGrantsRequest, ListGrantsRequest__Output as _switchyard_admin_v1_ListGrantsRequest__Output } from '../../../switchyard/admin/v1/ListGrantsRequest.js';
import type { ListGrantsResponse as _switchyard_admin_v1_ListGrantsResponse, ListGrantsResponse__Output as _switchyard_admin_v1_ListGrantsResponse__Output } from '../../../switchyard/admin/v1/ListGrantsResponse.js';

export interface GrantServiceClient extends grpc.Client {
  CreateGrant(argument: _switchyard_admin_v1_CreateGrantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  CreateGrant(argument: _switchyard_admin_v1_CreateGrantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  CreateGrant(argument: _switchyard_admin_v1_CreateGrantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  CreateGrant(argument: _switchyard_admin_v1_CreateGrantRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  createGrant(argument: _switchyard_admin_v1_CreateGrantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  createGrant(argument: _switchyard_admin_v1_CreateGrantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  createGrant(argument: _switchyard_admin_v1_CreateGrantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  createGrant(argument: _switchyard_admin_v1_CreateGrantRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  
  DeleteGrant(argument: _switchyard_admin_v1_DeleteGrantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  DeleteGrant(argument: _switchyard_admin_v1_DeleteGrantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  DeleteGrant(argument: _switchyard_admin_v1_DeleteGrantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  DeleteGrant(argument: _switchyard_admin_v1_DeleteGrantRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  deleteGrant(argument: _switchyard_admin_v1_DeleteGrantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  deleteGrant(argument: _switchyard_admin_v1_DeleteGrantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  deleteGrant(argument: _switchyard_admin_v1_DeleteGrantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  deleteGrant(argument: _switchyard_admin_v1_DeleteGrantRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Grant__Output>): grpc.ClientUnaryCall;
  
  ListGrants(argument: _switchyard_admin_v1_ListGrantsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListGrantsResponse__Output>): grpc.ClientUnaryCall;
  ListGrants(argument: _switchyard_admin_v1_ListGrantsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListGrantsResponse__Output>): grpc.ClientUnaryCall;
  ListGrants(argument: _switchyard_admin_v1_ListGrantsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListGrantsResponse__Output>): grpc.ClientUnaryCall;
  ListGrants(argument: _switchyard_admin_v1_ListGrantsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListGrantsResponse__Output>): grpc.ClientUnaryCall;
  listGrants(argument: _switchyard_admin_v1_ListGrantsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListGrantsResponse__Output>): grpc.ClientUnaryCall;
  listGrants(argument: _switchyard_admin_v1_ListGrantsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListGrantsResponse__Output>): grpc.ClientUnaryCall;
  listGrants(argument: _switchyard_admin_v1_ListGrantsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListGrantsResponse__Output>): grpc.ClientUnaryCall;
  listGrants(argument: _switchyard_admin_v1_ListGrantsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListGrantsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface GrantServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateGrant: grpc.handleUnaryCall<_switchyard_admin_v1_CreateGrantRequest__Output, _switchyard_admin_v1_Grant>;
  
  DeleteGrant: grpc.handleUnaryCall<_switchyard_admin_v1_DeleteGrantRequest__Output, _switchyard_admin_v1_Grant>;
  
  ListGrants: grpc.handleUnaryCall<_switchyard_admin_v1_ListGrantsRequest__Output, _switchyard_admin_v1_ListGrantsResponse>;
  
}

export interface GrantServiceDefinition extends grpc.ServiceDefinition {
  CreateGrant: MethodDefinition<_switchyard_admin_v1_CreateGrantRequest, _switchyard_admin_v1_Grant, _switchyard_admin_v1_CreateGrantRequest__Output, _switchyard_admin_v1_Grant__Output>
  DeleteGrant: MethodDefinition<_switchyard_admin_v1_DeleteGrantRequest, _switchyard_admin_v1_Grant, _switchyard_admin_v1_DeleteGrantRequest__Output, _switchyard_admin_v1_Grant__Output>
  ListGrants: MethodDefinition<_switchyard_admin_v1_ListGrantsRequest, _switchyard_admin_v1_ListGrantsResponse, _switchyard_admin_v1_ListGrantsRequest__Output, _switchyard_admin_v1_ListGrantsResponse__Output>
}
