// Original file: switchyard/admin/v1/daemon.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { BackupChunk as _switchyard_admin_v1_BackupChunk, BackupChunk__Output as _switchyard_admin_v1_BackupChunk__Output } from '../../../switchyard/admin/v1/BackupChunk.js';
import type { BackupRequest as _switchyard_admin_v1_BackupRequest, BackupRequest__Output as _switchyard_admin_v1_BackupRequest__Output } from '../../../switchyard/admin/v1/BackupRequest.js';
import type { DaemonStatus as _switchyard_admin_v1_DaemonStatus, DaemonStatus__Output as _switchyard_admin_v1_DaemonStatus__Output } from '../../../switchyard/admin/v1/DaemonStatus.js';
import type { GetStatusRequest as _switchyard_admin_v1_GetStatusRequest, GetStatusRequest__Output as _switchyard_admin_v1_GetStatusRequest__Output } from '../../../switchyard/admin/v1/GetStatusRequest.js';

export interface DaemonServiceClient extends grpc.Client {
  Backup(argument: _switchyard_admin_v1_BackupRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_BackupChunk__Output>;
  Backup(argument: _switchyard_admin_v1_BackupRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_BackupChunk__Output>;
  backup(argument: _switchyard_admin_v1_BackupRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_BackupChunk__Output>;
  backup(argument: _switchyard_admin_v1_BackupRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_BackupChunk__Output>;
  
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
  Backup: grpc.handleServerStreamingCall<_switchyard_admin_v1_BackupRequest__Output, _switchyard_admin_v1_BackupChunk>;
  
  GetStatus: grpc.handleUnaryCall<_switchyard_admin_v1_GetStatusRequest__Output, _switchyard_admin_v1_DaemonStatus>;
  
}

export interface DaemonServiceDefinition extends grpc.ServiceDefinition {
  Backup: MethodDefinition<_switchyard_admin_v1_BackupRequest, _switchyard_admin_v1_BackupChunk, _switchyard_admin_v1_BackupRequest__Output, _switchyard_admin_v1_BackupChunk__Output>
  GetStatus: MethodDefinition<_switchyard_admin_v1_GetStatusRequest, _switchyard_admin_v1_DaemonStatus, _switchyard_admin_v1_GetStatusRequest__Output, _switchyard_admin_v1_DaemonStatus__Output>
}
