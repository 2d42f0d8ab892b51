// Original file: switchyard/admin/v1/daemon.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { BackupChunk as _switchyard_admin_v1_BackupChunk, BackupChunk__Output as _switchyard_admin_v1_BackupChunk__Output } from '../../../switchyard/admin/v1/BackupChunk.js';
import type { BackupRequest as _switchyard_admin_v1_BackupRequest, BackupRequest__Output as _switchyard_admin_v1_BackupRequest__Output } from '../../../switchyard/admin/v1/BackupRequest.js';
import type { DaemonConfig as _switchyard_admin_v1_DaemonConfig, DaemonConfig__Output as _switchyard_admin_v1_DaemonConfig__Output } from '../../../switchyard/admin/v1/DaemonConfig.js';
import type { DaemonStatus as _switchyard_admin_v1_DaemonStatus, DaemonStatus__Output as _switchyard_admin_v1_DaemonStatus__Output } from '../../../switchyard/admin/v1/DaemonStatus.js';
import type { DoctorFacts as _switchyard_admin_v1_DoctorFacts, DoctorFacts__Output as _switchyard_admin_v1_DoctorFacts__Output } from '../../../switchyard/admin/v1/DoctorFacts.js';
import type { DoctorRequest as _switchyard_admin_v1_DoctorRequest, DoctorRequest__Output as _switchyard_admin_v1_DoctorRequest__Output } from '../../../switchyard/admin/v1/DoctorRequest.js';
import type { GetConfigRequest as _switchyard_admin_v1_GetConfigRequest, GetConfigRequest__Output as _switchyard_admin_v1_GetConfigRequest__Output } from '../../../switchyard/admin/v1/GetConfigRequest.js';
import type { GetStatusRequest as _switchyard_admin_v1_GetStatusRequest, GetStatusRequest__Output as _switchyard_admin_v1_GetStatusRequest__Output } from '../../../switchyard/admin/v1/GetStatusRequest.js';

export interface DaemonServiceClient extends grpc.Client {
  Backup(argument: _switchyard_admin_v1_BackupRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_BackupChunk__Output>;
  Backup(argument: _switchyard_admin_v1_BackupRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_BackupChunk__Output>;
  backup(argument: _switchyard_admin_v1_BackupRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_BackupChunk__Output>;
  backup(argument: _switchyard_admin_v1_BackupRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_BackupChunk__Output>;
  
  Doctor(argument: _switchyard_admin_v1_DoctorRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_DoctorFacts__Output>): grpc.ClientUnaryCall;
  Doctor(argument: _switchyard_admin_v1_DoctorRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_DoctorFacts__Output>): grpc.ClientUnaryCall;
  Doctor(argument: _switchyard_admin_v1_DoctorRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_DoctorFacts__Output>): grpc.ClientUnaryCall;
  Doctor(argument: _switchyard_admin_v1_DoctorRequest, callback: grpc.requestCallback<_switchyard_admin_v1_DoctorFacts__Output>): grpc.ClientUnaryCall;
  doctor(argument: _switchyard_admin_v1_DoctorRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_DoctorFacts__Output>): grpc.ClientUnaryCall;
  doctor(argument: _switchyard_admin_v1_DoctorRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_DoctorFacts__Output>): grpc.ClientUnaryCall;
  doctor(argument: _switchyard_admin_v1_DoctorRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_DoctorFacts__Output>): grpc.ClientUnaryCall;
  doctor(argument: _switchyard_admin_v1_DoctorRequest, callback: grpc.requestCallback<_switchyard_admin_v1_DoctorFacts__Output>): grpc.ClientUnaryCall;
  
  GetConfig(argument: _switchyard_admin_v1_GetConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonConfig__Output>): grpc.ClientUnaryCall;
  GetConfig(argument: _switchyard_admin_v1_GetConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonConfig__Output>): grpc.ClientUnaryCall;
  GetConfig(argument: _switchyard_admin_v1_GetConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonConfig__Output>): grpc.ClientUnaryCall;
  GetConfig(argument: _switchyard_admin_v1_GetConfigRequest, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonConfig__Output>): grpc.ClientUnaryCall;
  getConfig(argument: _switchyard_admin_v1_GetConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonConfig__Output>): grpc.ClientUnaryCall;
  getConfig(argument: _switchyard_admin_v1_GetConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonConfig__Output>): grpc.ClientUnaryCall;
  getConfig(argument: _switchyard_admin_v1_GetConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonConfig__Output>): grpc.ClientUnaryCall;
  getConfig(argument: _switchyard_admin_v1_GetConfigRequest, callback: grpc.requestCallback<_switchyard_admin_v1_DaemonConfig__Output>): grpc.ClientUnaryCall;
  
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
  
  Doctor: grpc.handleUnaryCall<_switchyard_admin_v1_DoctorRequest__Output, _switchyard_admin_v1_DoctorFacts>;
  
  GetConfig: grpc.handleUnaryCall<_switchyard_admin_v1_GetConfigRequest__Output, _switchyard_admin_v1_DaemonConfig>;
  
  GetStatus: grpc.handleUnaryCall<_switchyard_admin_v1_GetStatusRequest__Output, _switchyard_admin_v1_DaemonStatus>;
  
}

export interface DaemonServiceDefinition extends grpc.ServiceDefinition {
  Backup: MethodDefinition<_switchyard_admin_v1_BackupRequest, _switchyard_admin_v1_BackupChunk, _switchyard_admin_v1_BackupRequest__Output, _switchyard_admin_v1_BackupChunk__Output>
  Doctor: MethodDefinition<_switchyard_admin_v1_DoctorRequest, _switchyard_admin_v1_DoctorFacts, _switchyard_admin_v1_DoctorRequest__Output, _switchyard_admin_v1_DoctorFacts__Output>
  GetConfig: MethodDefinition<_switchyard_admin_v1_GetConfigRequest, _switchyard_admin_v1_DaemonConfig, _switchyard_admin_v1_GetConfigRequest__Output, _switchyard_admin_v1_DaemonConfig__Output>
  GetStatus: MethodDefinition<_switchyard_admin_v1_GetStatusRequest, _switchyard_admin_v1_DaemonStatus, _switchyard_admin_v1_GetStatusRequest__Output, _switchyard_admin_v1_DaemonStatus__Output>
}
