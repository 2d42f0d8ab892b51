// Original file: switchyard/admin/v1/principals.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { GetPrincipalRequest as _switchyard_admin_v1_GetPrincipalRequest, GetPrincipalRequest__Output as _switchyard_admin_v1_GetPrincipalRequest__Output } from '../../../switchyard/admin/v1/GetPrincipalRequest.js';
import type { PrincipalDetails as _switchyard_admin_v1_PrincipalDetails, PrincipalDetails__Output as _switchyard_admin_v1_PrincipalDetails__Output } from '../../../switchyard/admin/v1/PrincipalDetails.js';

export interface PrincipalServiceClient extends grpc.Client {
  GetPrincipal(argument: _switchyard_admin_v1_GetPrincipalRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_PrincipalDetails__Output>): grpc.ClientUnaryCall;
  GetPrincipal(argument: _switchyard_admin_v1_GetPrincipalRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_PrincipalDetails__Output>): grpc.ClientUnaryCall;
  GetPrincipal(argument: _switchyard_admin_v1_GetPrincipalRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_PrincipalDetails__Output>): grpc.ClientUnaryCall;
  GetPrincipal(argument: _switchyard_admin_v1_GetPrincipalRequest, callback: grpc.requestCallback<_switchyard_admin_v1_PrincipalDetails__Output>): grpc.ClientUnaryCall;
  getPrincipal(argument: _switchyard_admin_v1_GetPrincipalRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_PrincipalDetails__Output>): grpc.ClientUnaryCall;
  getPrincipal(argument: _switchyard_admin_v1_GetPrincipalRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_PrincipalDetails__Output>): grpc.ClientUnaryCall;
  getPrincipal(argument: _switchyard_admin_v1_GetPrincipalRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_PrincipalDetails__Output>): grpc.ClientUnaryCall;
  getPrincipal(argument: _switchyard_admin_v1_GetPrincipalRequest, callback: grpc.requestCallback<_switchyard_admin_v1_PrincipalDetails__Output>): grpc.ClientUnaryCall;
  
}

export interface PrincipalServiceHandlers extends grpc.UntypedServiceImplementation {
  GetPrincipal: grpc.handleUnaryCall<_switchyard_admin_v1_GetPrincipalRequest__Output, _switchyard_admin_v1_PrincipalDetails>;
  
}

export interface PrincipalServiceDefinition extends grpc.ServiceDefinition {
  GetPrincipal: MethodDefinition<_switchyard_admin_v1_GetPrincipalRequest, _switchyard_admin_v1_PrincipalDetails, _switchyard_admin_v1_GetPrincipalRequest__Output, _switchyard_admin_v1_PrincipalDetails__Output>
}
