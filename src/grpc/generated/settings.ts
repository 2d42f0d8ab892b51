import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { GetSettingsRequest as _switchyard_admin_v1_GetSettingsRequest, GetSettingsRequest__Output as _switchyard_admin_v1_GetSettingsRequest__Output } from './switchyard/admin/v1/GetSettingsRequest.js';
import type { OrganizationSettings as _switchyard_admin_v1_OrganizationSettings, OrganizationSettings__Output as _switchyard_admin_v1_OrganizationSettings__Output } from './switchyard/admin/v1/OrganizationSettings.js';
import type { SettingsServiceClient as _switchyard_admin_v1_SettingsServiceClient, SettingsServiceDefinition as _switchyard_admin_v1_SettingsServiceDefinition } from './switchyard/admin/v1/SettingsService.js';
import type { UpdateSettingsRequest as _switchyard_admin_v1_UpdateSettingsRequest, UpdateSettingsRequest__Output as _switchyard_admin_v1_UpdateSettingsRequest__Output } from './switchyard/admin/v1/UpdateSettingsRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchyard: {
    admin: {
      v1: {
        GetSettingsRequest: MessageTypeDefinition<_switchyard_admin_v1_GetSettingsRequest, _switchyard_admin_v1_GetSettingsRequest__Output>
        OrganizationSettings: MessageTypeDefinition<_switchyard_admin_v1_OrganizationSettings, _switchyard_admin_v1_OrganizationSettings__Output>
        SettingsService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_SettingsServiceClient> & { service: _switchyard_admin_v1_SettingsServiceDefinition }
        UpdateSettingsRequest: MessageTypeDefinition<_switchyard_admin_v1_UpdateSettingsRequest, _switchyard_admin_v1_UpdateSettingsRequest__Output>
      }
    }
  }
}

