// Original file: switchyard/admin/v1/portal.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreatePortalSessionRequest as _switchyard_admin_v1_CreatePortalSessionRequest, CreatePortalSessionRequest__Output as _switchyard_admin_v1_CreatePortalSessionRequest__Output } from '../../../switchyard/admin/v1/CreatePortalSessionRequest.js';
import type { PortalSession as _switchyard_admin_v1_PortalSession, PortalSession__Output as _switchyard_admin_v1_PortalSession__Output } from '../../../switchyard/admin/v1/PortalSession.js';

export interface PortalServiceClient extends grpc.Client {
  CreatePortalSession(argument: _switchyard_admin_v1_CreatePortalSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_PortalSession__Output>): grpc.ClientUnaryCall;
  CreatePortalSession(argument: _switchyard_admin_v1_CreatePortalSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_PortalSession__Output>): grpc.ClientUnaryCall;
  CreatePortalSession(argument: _switchyard_admin_v1_CreatePortalSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_PortalSession__Output>): grpc.ClientUnaryCall;
  CreatePortalSession(argument: _switchyard_admin_v1_CreatePortalSessionRequest, callback: grpc.requestCallback<_switchyard_admin_v1_PortalSession__Output>): grpc.ClientUnaryCall;
  createPortalSession(argument: _switchyard_admin_v1_CreatePortalSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_PortalSession__Output>): grpc.ClientUnaryCall;
  createPortalSession(argument: _switchyard_admin_v1_CreatePortalSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_PortalSession__Output>): grpc.ClientUnaryCall;
  createPortalSession(argument: _switchyard_admin_v1_CreatePortalSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_PortalSession__Output>): grpc.ClientUnaryCall;
  createPortalSession(argument: _switchyard_admin_v1_CreatePortalSessionRequest, callback: grpc.requestCallback<_switchyard_admin_v1_PortalSession__Output>): grpc.ClientUnaryCall;
  
}

export interface PortalServiceHandlers extends grpc.UntypedServiceImplementation {
  CreatePortalSession: grpc.handleUnaryCall<_switchyard_admin_v1_CreatePortalSessionRequest__Output, _switchyard_admin_v1_PortalSession>;
  
}

export interface PortalServiceDefinition extends grpc.ServiceDefinition {
  CreatePortalSession: MethodDefinition<_switchyard_admin_v1_CreatePortalSessionRequest, _switchyard_admin_v1_PortalSession, _switchyard_admin_v1_CreatePortalSessionRequest__Output, _switchyard_admin_v1_PortalSession__Output>
}
