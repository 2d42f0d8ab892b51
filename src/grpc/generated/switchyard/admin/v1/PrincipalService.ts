// Original file: switchyard/admin/v1/principals.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { GetPrincipalRequest as _switchyard_admin_v1_GetPrincipalRequest, GetPrincipalRequest__Output as _switchyard_admin_v1_GetPrincipalRequest__Output } from '../../../switchyard/admin/v1/GetPrincipalRequest.js';
import type { LinkPrincipalRequest as _switchyard_admin_v1_LinkPrincipalRequest, LinkPrincipalRequest__Output as _switchyard_admin_v1_LinkPrincipalRequest__Output } from '../../../switchyard/admin/v1/LinkPrincipalRequest.js';
import type { Principal as _switchyard_admin_v1_Principal, Principal__Output as _switchyard_admin_v1_Principal__Output } from '../../../switchyard/admin/v1/Principal.js';
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
  
  LinkPrincipal(argument: _switchyard_admin_v1_LinkPrincipalRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Principal__Output>): grpc.ClientUnaryCall;
  LinkPrincipal(argument: _switchyard_admin_v1_LinkPrincipalRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Principal__Output>): grpc.ClientUnaryCall;
  LinkPrincipal(argument: _switchyard_admin_v1_LinkPrincipalRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Principal__Output>): grpc.ClientUnaryCall;
  LinkPrincipal(argument: _switchyard_admin_v1_LinkPrincipalRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Principal__Output>): grpc.ClientUnaryCall;
  linkPrincipal(argument: _switchyard_admin_v1_LinkPrincipalRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Principal__Output>): grpc.ClientUnaryCall;
  linkPrincipal(argument: _switchyard_admin_v1_LinkPrincipalRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Principal__Output>): grpc.ClientUnaryCall;
  linkPrincipal(argument: _switchyard_admin_v1_LinkPrincipalRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Principal__Output>): grpc.ClientUnaryCall;
  linkPrincipal(argument: _switchyard_admin_v1_LinkPrincipalRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Principal__Output>): grpc.ClientUnaryCall;
  
}

export interface PrincipalServiceHandlers extends grpc.UntypedServiceImplementation {
  GetPrincipal: grpc.handleUnaryCall<_switchyard_admin_v1_GetPrincipalRequest__Output, _switchyard_admin_v1_PrincipalDetails>;
  
  LinkPrincipal: grpc.handleUnaryCall<_switchyard_admin_v1_LinkPrincipalRequest__Output, _switchyard_admin_v1_Principal>;
  
}

export interface PrincipalServiceDefinition extends grpc.ServiceDefinition {
  GetPrincipal: MethodDefinition<_switchyard_admin_v1_GetPrincipalRequest, _switchyard_admin_v1_PrincipalDetails, _switchyard_admin_v1_GetPrincipalRequest__Output, _switchyard_admin_v1_PrincipalDetails__Output>
  LinkPrincipal: MethodDefinition<_switchyard_admin_v1_LinkPrincipalRequest, _switchyard_admin_v1_Principal, _switchyard_admin_v1_LinkPrincipalRequest__Output, _switchyard_admin_v1_Principal__Output>
}
