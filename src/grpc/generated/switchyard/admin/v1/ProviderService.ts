// Original file: switchyard/admin/v1/providers.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ListProvidersRequest as _switchyard_admin_v1_ListProvidersRequest, ListProvidersRequest__Output as _switchyard_admin_v1_ListProvidersRequest__Output } from '../../../switchyard/admin/v1/ListProvidersRequest.js';
import type { ListProvidersResponse as _switchyard_admin_v1_ListProvidersResponse, ListProvidersResponse__Output as _switchyard_admin_v1_ListProvidersResponse__Output } from '../../../switchyard/admin/v1/ListProvidersResponse.js';
import type { Provider as _switchyard_admin_v1_Provider, Provider__Output as _switchyard_admin_v1_Provider__Output } from '../../../switchyard/admin/v1/Provider.js';
import type { ProviderUsageRequest as _switchyard_admin_v1_ProviderUsageRequest, ProviderUsageRequest__Output as _switchyard_admin_v1_ProviderUsageRequest__Output } from '../../../switchyard/admin/v1/ProviderUsageRequest.js';
import type { ProviderUsageResponse as _switchyard_admin_v1_ProviderUsageResponse, ProviderUsageResponse__Output as _switchyard_admin_v1_ProviderUsageResponse__Output } from '../../../switchyard/admin/v1/ProviderUsageResponse.js';
import type { RouteProviderRequest as _switchyard_admin_v1_RouteProviderRequest, RouteProviderRequest__Output as _switchyard_admin_v1_RouteProviderRequest__Output } from '../../../switchyard/admin/v1/RouteProviderRequest.js';
import type { RouteProviderResponse as _switchyard_admin_v1_RouteProviderResponse, RouteProviderResponse__Output as _switchyard_admin_v1_RouteProviderResponse__Output } from '../../../switchyard/admin/v1/RouteProviderResponse.js';
import type { SetProviderRequest as _switchyard_admin_v1_SetProviderRequest, SetProviderRequest__Output as _switchyard_admin_v1_SetProviderRequest__Output } from '../../../switchyard/admin/v1/SetProviderRequest.js';

export interface ProviderServiceClient extends grpc.Client {
  ListProviders(argument: _switchyard_admin_v1_ListProvidersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  ListProviders(argument: _switchyard_admin_v1_ListProvidersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  ListProviders(argument: _switchyard_admin_v1_ListProvidersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  ListProviders(argument: _switchyard_admin_v1_ListProvidersRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  listProviders(argument: _switchyard_admin_v1_ListProvidersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  listProviders(argument: _switchyard_admin_v1_ListProvidersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  listProviders(argument: _switchyard_admin_v1_ListProvidersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  listProviders(argument: _switchyard_admin_v1_ListProvidersRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListProvidersResponse__Output>): grpc.ClientUnaryCall;
  
  ProviderUsage(argument: _switchyard_admin_v1_ProviderUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ProviderUsageResponse__Output>): grpc.ClientUnaryCall;
  ProviderUsage(argument: _switchyard_admin_v1_ProviderUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ProviderUsageResponse__Output>): grpc.ClientUnaryCall;
  ProviderUsage(argument: _switchyard_admin_v1_ProviderUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ProviderUsageResponse__Output>): grpc.ClientUnaryCall;
  ProviderUsage(argument: _switchyard_admin_v1_ProviderUsageRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ProviderUsageResponse__Output>): grpc.ClientUnaryCall;
  providerUsage(argument: _switchyard_admin_v1_ProviderUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ProviderUsageResponse__Output>): grpc.ClientUnaryCall;
  providerUsage(argument: _switchyard_admin_v1_ProviderUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ProviderUsageResponse__Output>): grpc.ClientUnaryCall;
  providerUsage(argument: _switchyard_admin_v1_ProviderUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ProviderUsageResponse__Output>): grpc.ClientUnaryCall;
  providerUsage(argument: _switchyard_admin_v1_ProviderUsageRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ProviderUsageResponse__Output>): grpc.ClientUnaryCall;
  
  RouteProvider(argument: _switchyard_admin_v1_RouteProviderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_RouteProviderResponse__Output>): grpc.ClientUnaryCall;
  RouteProvider(argument: _switchyard_admin_v1_RouteProviderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_RouteProviderResponse__Output>): grpc.ClientUnaryCall;
  RouteProvider(argument: _switchyard_admin_v1_RouteProviderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_RouteProviderResponse__Output>): grpc.ClientUnaryCall;
  RouteProvider(argument: _switchyard_admin_v1_RouteProviderRequest, callback: grpc.requestCallback<_switchyard_admin_v1_RouteProviderResponse__Output>): grpc.ClientUnaryCall;
  routeProvider(argument: _switchyard_admin_v1_RouteProviderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_RouteProviderResponse__Output>): grpc.ClientUnaryCall;
  routeProvider(argument: _switchyard_admin_v1_RouteProviderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_RouteProviderResponse__Output>): grpc.ClientUnaryCall;
  routeProvider(argument: _switchyard_admin_v1_RouteProviderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_RouteProviderResponse__Output>): grpc.ClientUnaryCall;
  routeProvider(argument: _switchyard_admin_v1_RouteProviderRequest, callback: grpc.requestCallback<_switchyard_admin_v1_RouteProviderResponse__Output>): grpc.ClientUnaryCall;
  
  SetProvider(argument: _switchyard_admin_v1_SetProviderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Provider__Output>): grpc.ClientUnaryCall;
  SetProvider(argument: _switchyard_admin_v1_SetProviderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Provider__Output>): grpc.ClientUnaryCall;
  SetProvider(argument: _switchyard_admin_v1_SetProviderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Provider__Output>): grpc.ClientUnaryCall;
  SetProvider(argument: _switchyard_admin_v1_SetProviderRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Provider__Output>): grpc.ClientUnaryCall;
  setProvider(argument: _switchyard_admin_v1_SetProviderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Provider__Output>): grpc.ClientUnaryCall;
  setProvider(argument: _switchyard_admin_v1_SetProviderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Provider__Output>): grpc.ClientUnaryCall;
  setProvider(argument: _switchyard_admin_v1_SetProviderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Provider__Output>): grpc.ClientUnaryCall;
  setProvider(argument: _switchyard_admin_v1_SetProviderRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Provider__Output>): grpc.ClientUnaryCall;
  
}

export interface ProviderServiceHandlers extends grpc.UntypedServiceImplementation {
  ListProviders: grpc.handleUnaryCall<_switchyard_admin_v1_ListProvidersRequest__Output, _switchyard_admin_v1_ListProvidersResponse>;
  
  ProviderUsage: grpc.handleUnaryCall<_switchyard_admin_v1_ProviderUsageRequest__Output, _switchyard_admin_v1_ProviderUsageResponse>;
  
  RouteProvider: grpc.handleUnaryCall<_switchyard_admin_v1_RouteProviderRequest__Output, _switchyard_admin_v1_RouteProviderResponse>;
  
  SetProvider: grpc.handleUnaryCall<_switchyard_admin_v1_SetProviderRequest__Output, _switchyard_admin_v1_Provider>;
  
}

export interface ProviderServiceDefinition extends grpc.ServiceDefinition {
  ListProviders: MethodDefinition<_switchyard_admin_v1_ListProvidersRequest, _switchyard_admin_v1_ListProvidersResponse, _switchyard_admin_v1_ListProvidersRequest__Output, _switchyard_admin_v1_ListProvidersResponse__Output>
  ProviderUsage: MethodDefinition<_switchyard_admin_v1_ProviderUsageRequest, _switchyard_admin_v1_ProviderUsageResponse, _switchyard_admin_v1_ProviderUsageRequest__Output, _switchyard_admin_v1_ProviderUsageResponse__Output>
  RouteProvider: MethodDefinition<_switchyard_admin_v1_RouteProviderRequest, _switchyard_admin_v1_RouteProviderResponse, _switchyard_admin_v1_RouteProviderRequest__Output, _switchyard_admin_v1_RouteProviderResponse__Output>
  SetProvider: MethodDefinition<_switchyard_admin_v1_SetProviderRequest, _switchyard_admin_v1_Provider, _switchyard_admin_v1_SetProviderRequest__Output, _switchyard_admin_v1_Provider__Output>
}
