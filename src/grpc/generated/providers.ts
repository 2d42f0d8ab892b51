import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Capability as _switchyard_admin_v1_Capability, Capability__Output as _switchyard_admin_v1_Capability__Output } from './switchyard/admin/v1/Capability.js';
import type { ListProvidersRequest as _switchyard_admin_v1_ListProvidersRequest, ListProvidersRequest__Output as _switchyard_admin_v1_ListProvidersRequest__Output } from './switchyard/admin/v1/ListProvidersRequest.js';
import type { ListProvidersResponse as _switchyard_admin_v1_ListProvidersResponse, ListProvidersResponse__Output as _switchyard_admin_v1_ListProvidersResponse__Output } from './switchyard/admin/v1/ListProvidersResponse.js';
import type { Provider as _switchyard_admin_v1_Provider, Provider__Output as _switchyard_admin_v1_Provider__Output } from './switchyard/admin/v1/Provider.js';
import type { ProviderHealth as _switchyard_admin_v1_ProviderHealth, ProviderHealth__Output as _switchyard_admin_v1_ProviderHealth__Output } from './switchyard/admin/v1/ProviderHealth.js';
import type { ProviderServiceClient as _switchyard_admin_v1_ProviderServiceClient, ProviderServiceDefinition as _switchyard_admin_v1_ProviderServiceDefinition } from './switchyard/admin/v1/ProviderService.js';
import type { ProviderUsageRequest as _switchyard_admin_v1_ProviderUsageRequest, ProviderUsageRequest__Output as _switchyard_admin_v1_ProviderUsageRequest__Output } from './switchyard/admin/v1/ProviderUsageRequest.js';
import type { ProviderUsageResponse as _switchyard_admin_v1_ProviderUsageResponse, ProviderUsageResponse__Output as _switchyard_admin_v1_ProviderUsageResponse__Output } from './switchyard/admin/v1/ProviderUsageResponse.js';
import type { RouteCandidate as _switchyard_admin_v1_RouteCandidate, RouteCandidate__Output as _switchyard_admin_v1_RouteCandidate__Output } from './switchyard/admin/v1/RouteCandidate.js';
import type { RouteProviderRequest as _switchyard_admin_v1_RouteProviderRequest, RouteProviderRequest__Output as _switchyard_admin_v1_RouteProviderRequest__Output } from './switchyard/admin/v1/RouteProviderRequest.js';
import type { RouteProviderResponse as _switchyard_admin_v1_RouteProviderResponse, RouteProviderResponse__Output as _switchyard_admin_v1_RouteProviderResponse__Output } from './switchyard/admin/v1/RouteProviderResponse.js';
import type { RouteRejection as _switchyard_admin_v1_RouteRejection, RouteRejection__Output as _switchyard_admin_v1_RouteRejection__Output } from './switchyard/admin/v1/RouteRejection.js';
import type { SetProviderRequest as _switchyard_admin_v1_SetProviderRequest, SetProviderRequest__Output as _switchyard_admin_v1_SetProviderRequest__Output } from './switchyard/admin/v1/SetProviderRequest.js';
import type { UnavailableModel as _switchyard_admin_v1_UnavailableModel, UnavailableModel__Output as _switchyard_admin_v1_UnavailableModel__Output } from './switchyard/admin/v1/UnavailableModel.js';
import type { UsageRow as _switchyard_admin_v1_UsageRow, UsageRow__Output as _switchyard_admin_v1_UsageRow__Output } from './switchyard/admin/v1/UsageRow.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchyard: {
    admin: {
      v1: {
        Capability: MessageTypeDefinition<_switchyard_admin_v1_Capability, _switchyard_admin_v1_Capability__Output>
        ListProvidersRequest: MessageTypeDefinition<_switchyard_admin_v1_ListProvidersRequest, _switchyard_admin_v1_ListProvidersRequest__Output>
        ListProvidersResponse: MessageTypeDefinition<_switchyard_admin_v1_ListProvidersResponse, _switchyard_admin_v1_ListProvidersResponse__Output>
        Provider: MessageTypeDefinition<_switchyard_admin_v1_Provider, _switchyard_admin_v1_Provider__Output>
        ProviderHealth: MessageTypeDefinition<_switchyard_admin_v1_ProviderHealth, _switchyard_admin_v1_ProviderHealth__Output>
        ProviderService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_ProviderServiceClient> & { service: _switchyard_admin_v1_ProviderServiceDefinition }
        ProviderUsageRequest: MessageTypeDefinition<_switchyard_admin_v1_ProviderUsageRequest, _switchyard_admin_v1_ProviderUsageRequest__Output>
        ProviderUsageResponse: MessageTypeDefinition<_switchyard_admin_v1_ProviderUsageResponse, _switchyard_admin_v1_ProviderUsageResponse__Output>
        RouteCandidate: MessageTypeDefinition<_switchyard_admin_v1_RouteCandidate, _switchyard_admin_v1_RouteCandidate__Output>
        RouteProviderRequest: MessageTypeDefinition<_switchyard_admin_v1_RouteProviderRequest, _switchyard_admin_v1_RouteProviderRequest__Output>
        RouteProviderResponse: MessageTypeDefinition<_switchyard_admin_v1_RouteProviderResponse, _switchyard_admin_v1_RouteProviderResponse__Output>
        RouteRejection: MessageTypeDefinition<_switchyard_admin_v1_RouteRejection, _switchyard_admin_v1_RouteRejection__Output>
        SetProviderRequest: MessageTypeDefinition<_switchyard_admin_v1_SetProviderRequest, _switchyard_admin_v1_SetProviderRequest__Output>
        UnavailableModel: MessageTypeDefinition<_switchyard_admin_v1_UnavailableModel, _switchyard_admin_v1_UnavailableModel__Output>
        UsageRow: MessageTypeDefinition<_switchyard_admin_v1_UsageRow, _switchyard_admin_v1_UsageRow__Output>
      }
    }
  }
}

