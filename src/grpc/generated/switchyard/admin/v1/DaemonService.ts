// Original file: switchyard/admin/v1/daemon.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { DaemonStatus as _switchyard_admin_v1_DaemonStatus, DaemonStatus__Output as _switchyard_admin_v1_DaemonStatus__Output } from '../../../switchyard/admin/v1/DaemonStatus.js';
import type { GetStatusRequest as _switchyard_admin_v1_GetStatusRequest, GetStatusRequest__Output as _switchyard_admin_v1_GetStatusRequest__Output } from '../../../switchyard/admin/v1/GetStatusRequest.js';

export interface DaemonServiceClient extends grpc.Client {
  GetStatus(argument: _switchyard_admin_v1_GetStatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonStatus__Output>): grpc.ClientUnaryCall;
  GetStatus(argument: _switchyard_admin_v1_GetStatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonStatus__Output>): grpc.ClientUnaryCall;
  GetStatus(argument: _switchyard_admin_v1_GetStatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonStatus__Output>): grpc.ClientUnaryCall;
  GetStatus(argument: _switchyard_admin_v1_GetStatusRequest, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonStatus__Output>): grpc.ClientUnaryCall;
  getStatus(argument: _switchyard_admin_v1_GetStatusRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonStatus__Output>): grpc.ClientUnaryCall;
  getStatus(argument: _switchyard_admin_v1_GetStatusRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonStatus__Output>): grpc.ClientUnaryCall;
  getStatus(argument: _switchyard_admin_v1_GetStatusRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonStatus__Output>): grpc.ClientUnaryCall;
  getStatus(argument: _switchyard_admin_v1_GetStatusRequest, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonStatus__Output>): grpc.ClientUnaryCall;
  
}

export interface DaemonServiceHandlers extends grpc.UntypedServiceImplementation {
  GetStatus: grpc.handleUnaryCall<_switchyard_admin_v1_GetStatusRequest__Output, _switchyard_admin_v1_DaemonStatus>;
  
}

export interface DaemonServiceDefinition extends grpc.ServiceDefinition {
  GetStatus: MethodDefinition<_switchyard_admin_v1_GetStatusRequest, _switchyard_admin_v1_DaemonStatus, _switchyard_admin_v1_GetStatusRequest__Output, _switchyard_admin_v1_DaemonStatus__Output>
}
