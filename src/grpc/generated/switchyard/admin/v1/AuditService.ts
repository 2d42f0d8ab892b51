// Original file: switchyard/admin/v1/audit.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ListAuditLogRequest as _switchyard_admin_v1_ListAuditLogRequest, ListAuditLogRequest__Output as _switchyard_admin_v1_ListAuditLogRequest__Output } from '../../../switchyard/admin/v1/ListAuditLogRequest.js';
import type { ListAuditLogResponse as _switchyard_admin_v1_ListAuditLogResponse, ListAuditLogResponse__Output as _switchyard_admin_v1_ListAuditLogResponse__Output } from '../../../switchyard/admin/v1/ListAuditLogResponse.js';

export interface AuditServiceClient extends grpc.Client {
  ListAuditLog(argument: _switchyard_admin_v1_ListAuditLogRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListAuditLogResponse__Output>): grpc.ClientUnaryCall;
  ListAuditLog(argument: _switchyard_admin_v1_ListAuditLogRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListAuditLogResponse__Output>): grpc.ClientUnaryCall;
  ListAuditLog(argument: _switchyard_admin_v1_ListAuditLogRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListAuditLogResponse__Output>): grpc.ClientUnaryCall;
  ListAuditLog(argument: _switchyard_admin_v1_ListAuditLogRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListAuditLogResponse__Output>): grpc.ClientUnaryCall;
  listAuditLog(argument: _switchyard_admin_v1_ListAuditLogRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListAuditLogResponse__Output>): grpc.ClientUnaryCall;
  listAuditLog(argument: _switchyard_admin_v1_ListAuditLogRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListAuditLogResponse__Output>): grpc.ClientUnaryCall;
  listAuditLog(argument: _switchyard_admin_v1_ListAuditLogRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListAuditLogResponse__Output>): grpc.ClientUnaryCall;
  listAuditLog(argument: _switchyard_admin_v1_ListAuditLogRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListAuditLogResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface AuditServiceHandlers extends grpc.UntypedServiceImplementation {
  ListAuditLog: grpc.handleUnaryCall<_switchyard_admin_v1_ListAuditLogRequest__Output, _switchyard_admin_v1_ListAuditLogResponse>;
  
}

export interface AuditServiceDefinition extends grpc.ServiceDefinition {
  ListAuditLog: MethodDefinition<_switchyard_admin_v1_ListAuditLogRequest, _switchyard_admin_v1_ListAuditLogResponse, _switchyard_admin_v1_ListAuditLogRequest__Output, _switchyard_admin_v1_ListAuditLogResponse__Output>
}
