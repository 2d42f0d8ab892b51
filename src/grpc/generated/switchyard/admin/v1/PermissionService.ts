// Original file: switchyard/admin/v1/permissions.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CheckPermissionRequest as _switchyard_admin_v1_CheckPermissionRequest, CheckPermissionRequest__Output as _switchyard_admin_v1_CheckPermissionRequest__Output } from '../../../switchyard/admin/v1/CheckPermissionRequest.js';
import type { PermissionCheck as _switchyard_admin_v1_PermissionCheck, PermissionCheck__Output as _switchyard_admin_v1_PermissionCheck__Output } from '../../../switchyard/admin/v1/PermissionCheck.js';

export interface PermissionServiceClient extends grpc.Client {
  CheckPermission(argument: _switchyard_admin_v1_CheckPermissionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_PermissionCheck__Output>): grpc.ClientUnaryCall;
  CheckPermission(argument: _switchyard_admin_v1_CheckPermissionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_PermissionCheck__Output>): grpc.ClientUnaryCall;
  CheckPermission(argument: _switchyard_admin_v1_CheckPermissionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_PermissionCheck__Output>): grpc.ClientUnaryCall;
  CheckPermission(argument: _switchyard_admin_v1_CheckPermissionRequest, callback: grpc.requestCallback<_switchyard_admin_v1_PermissionCheck__Output>): grpc.ClientUnaryCall;
  checkPermission(argument: _switchyard_admin_v1_CheckPermissionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_PermissionCheck__Output>): grpc.ClientUnaryCall;
  checkPermission(argument: _switchyard_admin_v1_CheckPermissionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_PermissionCheck__Output>): grpc.ClientUnaryCall;
  checkPermission(argument: _switchyard_admin_v1_CheckPermissionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_PermissionCheck__Output>): grpc.ClientUnaryCall;
  checkPermission(argument: _switchyard_admin_v1_CheckPermissionRequest, callback: grpc.requestCallback<_switchyard_admin_v1_PermissionCheck__Output>): grpc.ClientUnaryCall;
  
}

export interface PermissionServiceHandlers extends grpc.UntypedServiceImplementation {
  CheckPermission: grpc.handleUnaryCall<_switchyard_admin_v1_CheckPermissionRequest__Output, _switchyard_admin_v1_PermissionCheck>;
  
}

export interface PermissionServiceDefinition extends grpc.ServiceDefinition {
  CheckPermission: MethodDefinition<_switchyard_admin_v1_CheckPermissionRequest, _switchyard_admin_v1_PermissionCheck, _switchyard_admin_v1_CheckPermissionRequest__Output, _switchyard_admin_v1_PermissionCheck__Output>
}
