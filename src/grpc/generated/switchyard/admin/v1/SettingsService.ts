// Original file: switchyard/admin/v1/settings.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { GetSettingsRequest as _switchyard_admin_v1_GetSettingsRequest, GetSettingsRequest__Output as _switchyard_admin_v1_GetSettingsRequest__Output } from '../../../switchyard/admin/v1/GetSettingsRequest.js';
import type { OrganizationSettings as _switchyard_admin_v1_OrganizationSettings, OrganizationSettings__Output as _switchyard_admin_v1_OrganizationSettings__Output } from '../../../switchyard/admin/v1/OrganizationSettings.js';
import type { UpdateSettingsRequest as _switchyard_admin_v1_UpdateSettingsRequest, UpdateSettingsRequest__Output as _switchyard_admin_v1_UpdateSettingsRequest__Output } from '../../../switchyard/admin/v1/UpdateSettingsRequest.js';

export interface SettingsServiceClient extends grpc.Client {
  GetSettings(argument: _switchyard_admin_v1_GetSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  GetSettings(argument: _switchyard_admin_v1_GetSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  GetSettings(argument: _switchyard_admin_v1_GetSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  GetSettings(argument: _switchyard_admin_v1_GetSettingsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  getSettings(argument: _switchyard_admin_v1_GetSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  getSettings(argument: _switchyard_admin_v1_GetSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  getSettings(argument: _switchyard_admin_v1_GetSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  getSettings(argument: _switchyard_admin_v1_GetSettingsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  
  UpdateSettings(argument: _switchyard_admin_v1_UpdateSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  UpdateSettings(argument: _switchyard_admin_v1_UpdateSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  UpdateSettings(argument: _switchyard_admin_v1_UpdateSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  UpdateSettings(argument: _switchyard_admin_v1_UpdateSettingsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  updateSettings(argument: _switchyard_admin_v1_UpdateSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  updateSettings(argument: _switchyard_admin_v1_UpdateSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  updateSettings(argument: _switchyard_admin_v1_UpdateSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  updateSettings(argument: _switchyard_admin_v1_UpdateSettingsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_OrganizationSettings__Output>): grpc.ClientUnaryCall;
  
}

export interface SettingsServiceHandlers extends grpc.UntypedServiceImplementation {
  GetSettings: grpc.handleUnaryCall<_switchyard_admin_v1_GetSettingsRequest__Output, _switchyard_admin_v1_OrganizationSettings>;
  
  UpdateSettings: grpc.handleUnaryCall<_switchyard_admin_v1_UpdateSettingsRequest__Output, _switchyard_admin_v1_OrganizationSettings>;
  
}

export interface SettingsServiceDefinition extends grpc.ServiceDefinition {
  GetSettings: MethodDefinition<_switchyard_admin_v1_GetSettingsRequest, _switchyard_admin_v1_OrganizationSettings, _switchyard_admin_v1_GetSettingsRequest__Output, _switchyard_admin_v1_OrganizationSettings__Output>
  UpdateSettings: MethodDefinition<_switchyard_admin_v1_UpdateSettingsRequest, _switchyard_admin_v1_OrganizationSettings, _switchyard_admin_v1_UpdateSettingsRequest__Output, _switchyard_admin_v1_OrganizationSettings__Output>
}
