// Original file: switchyard/admin/v1/api_keys.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ApiKey as _switchyard_admin_v1_ApiKey, ApiKey__Output as _switchyard_admin_v1_ApiKey__Output } from '../../../switchyard/admin/v1/ApiKey.js';
import type { CreateApiKeyRequest as _switchyard_admin_v1_CreateApiKeyRequest, CreateApiKeyRequest__Output as _switchyard_admin_v1_CreateApiKeyRequest__Output } from '../../../switchyard/admin/v1/CreateApiKeyRequest.js';
import type { CreateApiKeyResponse as _switchyard_admin_v1_CreateApiKeyResponse, CreateApiKeyResponse__Output as _switchyard_admin_v1_CreateApiKeyResponse__Output } from '../../../switchyard/admin/v1/CreateApiKeyResponse.js';
import type { GetApiKeyRequest as _switchyard_admin_v1_GetApiKeyRequest, GetApiKeyRequest__Output as _switchyard_admin_v1_GetApiKeyRequest__Output } from '../../../switchyard/admin/v1/GetApiKeyRequest.js';
import type { ListApiKeysRequest as _switchyard_admin_v1_ListApiKeysRequest, ListApiKeysRequest__Output as _switchyard_admin_v1_ListApiKeysRequest__Output } from '../../../switchyard/admin/v1/ListApiKeysRequest.js';
import type { ListApiKeysResponse as _switchyard_admin_v1_ListApiKeysResponse, ListApiKeysResponse__Output as _switchyard_admin_v1_ListApiKeysResponse__Output } from '../../../switchyard/admin/v1/ListApiKeysResponse.js';
import type { RevokeApiKeyRequest as _switchyard_admin_v1_RevokeApiKeyRequest, RevokeApiKeyRequest__Output as _switchyard_admin_v1_RevokeApiKeyRequest__Output } from '../../../switchyard/admin/v1/RevokeApiKeyRequest.js';

export interface ApiKeyServiceClient extends grpc.Client {
  CreateApiKey(argument: _switchyard_admin_v1_CreateApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateApiKey(argument: _switchyard_admin_v1_CreateApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateApiKey(argument: _switchyard_admin_v1_CreateApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  CreateApiKey(argument: _switchyard_admin_v1_CreateApiKeyRequest, callback: grpc.requestCallback<_switchyard_admin_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  createApiKey(argument: _switchyard_admin_v1_CreateApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  createApiKey(argument: _switchyard_admin_v1_CreateApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  createApiKey(argument: _switchyard_admin_v1_CreateApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  createApiKey(argument: _switchyard_admin_v1_CreateApiKeyRequest, callback: grpc.requestCallback<_switchyard_admin_v1_CreateApiKeyResponse__Output>): grpc.ClientUnaryCall;
  
  GetApiKey(argument: _switchyard_admin_v1_GetApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  GetApiKey(argument: _switchyard_admin_v1_GetApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  GetApiKey(argument: _switchyard_admin_v1_GetApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  GetApiKey(argument: _switchyard_admin_v1_GetApiKeyRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  getApiKey(argument: _switchyard_admin_v1_GetApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  getApiKey(argument: _switchyard_admin_v1_GetApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  getApiKey(argument: _switchyard_admin_v1_GetApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  getApiKey(argument: _switchyard_admin_v1_GetApiKeyRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  
  ListApiKeys(argument: _switchyard_admin_v1_ListApiKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  ListApiKeys(argument: _switchyard_admin_v1_ListApiKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  ListApiKeys(argument: _switchyard_admin_v1_ListApiKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  ListApiKeys(argument: _switchyard_admin_v1_ListApiKeysRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  listApiKeys(argument: _switchyard_admin_v1_ListApiKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  listApiKeys(argument: _switchyard_admin_v1_ListApiKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  listApiKeys(argument: _switchyard_admin_v1_ListApiKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  listApiKeys(argument: _switchyard_admin_v1_ListApiKeysRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListApiKeysResponse__Output>): grpc.ClientUnaryCall;
  
  RevokeApiKey(argument: _switchyard_admin_v1_RevokeApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  RevokeApiKey(argument: _switchyard_admin_v1_RevokeApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  RevokeApiKey(argument: _switchyard_admin_v1_RevokeApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  RevokeApiKey(argument: _switchyard_admin_v1_RevokeApiKeyRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  revokeApiKey(argument: _switchyard_admin_v1_RevokeApiKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  revokeApiKey(argument: _switchyard_admin_v1_RevokeApiKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  revokeApiKey(argument: _switchyard_admin_v1_RevokeApiKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  revokeApiKey(argument: _switchyard_admin_v1_RevokeApiKeyRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  
}

export interface ApiKeyServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateApiKey: grpc.handleUnaryCall<_switchyard_admin_v1_CreateApiKeyRequest__Output, _switchyard_admin_v1_CreateApiKeyResponse>;
  
  GetApiKey: grpc.handleUnaryCall<_switchyard_admin_v1_GetApiKeyRequest__Output, _switchyard_admin_v1_ApiKey>;
  
  ListApiKeys: grpc.handleUnaryCall<_switchyard_admin_v1_ListApiKeysRequest__Output, _switchyard_admin_v1_ListApiKeysResponse>;
  
  RevokeApiKey: grpc.handleUnaryCall<_switchyard_admin_v1_RevokeApiKeyRequest__Output, _switchyard_admin_v1_ApiKey>;
  
}

export interface ApiKeyServiceDefinition extends grpc.ServiceDefinition {
  CreateApiKey: MethodDefinition<_switchyard_admin_v1_CreateApiKeyRequest, _switchyard_admin_v1_CreateApiKeyResponse, _switchyard_admin_v1_CreateApiKeyRequest__Output, _switchyard_admin_v1_CreateApiKeyResponse__Output>
  GetApiKey: MethodDefinition<_switchyard_admin_v1_GetApiKeyRequest, _switchyard_admin_v1_ApiKey, _switchyard_admin_v1_GetApiKeyRequest__Output, _switchyard_admin_v1_ApiKey__Output>
  ListApiKeys: MethodDefinition<_switchyard_admin_v1_ListApiKeysRequest, _switchyard_admin_v1_ListApiKeysResponse, _switchyard_admin_v1_ListApiKeysRequest__Output, _switchyard_admin_v1_ListApiKeysResponse__Output>
  RevokeApiKey: MethodDefinition<_switchyard_admin_v1_RevokeApiKeyRequest, _switchyard_admin_v1_ApiKey, _switchyard_admin_v1_RevokeApiKeyRequest__Output, _switchyard_admin_v1_ApiKey__Output>
}
