import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { ApiKey as _switchyard_admin_v1_ApiKey, ApiKey__Output as _switchyard_admin_v1_ApiKey__Output } from './switchyard/admin/v1/ApiKey.js';
import type { ApiKeyServiceClient as _switchyard_admin_v1_ApiKeyServiceClient, ApiKeyServiceDefinition as _switchyard_admin_v1_ApiKeyServiceDefinition } from './switchyard/admin/v1/ApiKeyService.js';
import type { CreateApiKeyRequest as _switchyard_admin_v1_CreateApiKeyRequest, CreateApiKeyRequest__Output as _switchyard_admin_v1_CreateApiKeyRequest__Output } from './switchyard/admin/v1/CreateApiKeyRequest.js';
import type { CreateApiKeyResponse as _switchyard_admin_v1_CreateApiKeyResponse, CreateApiKeyResponse__Output as _switchyard_admin_v1_CreateApiKeyResponse__Output } from './switchyard/admin/v1/CreateApiKeyResponse.js';
import type { GetApiKeyRequest as _switchyard_admin_v1_GetApiKeyRequest, GetApiKeyRequest__Output as _switchyard_admin_v1_GetApiKeyRequest__Output } from './switchyard/admin/v1/GetApiKeyRequest.js';
import type { ListApiKeysRequest as _switchyard_admin_v1_ListApiKeysRequest, ListApiKeysRequest__Output as _switchyard_admin_v1_ListApiKeysRequest__Output } from './switchyard/admin/v1/ListApiKeysRequest.js';
import type { ListApiKeysResponse as _switchyard_admin_v1_ListApiKeysResponse, ListApiKeysResponse__Output as _switchyard_admin_v1_ListApiKeysResponse__Output } from './switchyard/admin/v1/ListApiKeysResponse.js';
import type { RevokeApiKeyRequest as _switchyard_admin_v1_RevokeApiKeyRequest, RevokeApiKeyRequest__Output as _switchyard_admin_v1_RevokeApiKeyRequest__Output } from './switchyard/admin/v1/RevokeApiKeyRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchyard: {
    admin: {
      v1: {
        ApiKey: MessageTypeDefinition<_switchyard_admin_v1_ApiKey, _switchyard_admin_v1_ApiKey__Output>
        ApiKeyService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_ApiKeyServiceClient> & { service: _switchyard_admin_v1_ApiKeyServiceDefinition }
        CreateApiKeyRequest: MessageTypeDefinition<_switchyard_admin_v1_CreateApiKeyRequest, _switchyard_admin_v1_CreateApiKeyRequest__Output>
        CreateApiKeyResponse: MessageTypeDefinition<_switchyard_admin_v1_CreateApiKeyResponse, _switchyard_admin_v1_CreateApiKeyResponse__Output>
        GetApiKeyRequest: MessageTypeDefinition<_switchyard_admin_v1_GetApiKeyRequest, _switchyard_admin_v1_GetApiKeyRequest__Output>
        ListApiKeysRequest: MessageTypeDefinition<_switchyard_admin_v1_ListApiKeysRequest, _switchyard_admin_v1_ListApiKeysRequest__Output>
        ListApiKeysResponse: MessageTypeDefinition<_switchyard_admin_v1_ListApiKeysResponse, _switchyard_admin_v1_ListApiKeysResponse__Output>
        RevokeApiKeyRequest: MessageTypeDefinition<_switchyard_admin_v1_RevokeApiKeyRequest, _switchyard_admin_v1_RevokeApiKeyRequest__Output>
      }
    }
  }
}

