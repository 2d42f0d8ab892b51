// Original file: switchyard/admin/v1/organizations.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateOrganizationRequest as _switchyard_admin_v1_CreateOrganizationRequest, CreateOrganizationRequest__Output as _switchyard_admin_v1_CreateOrganizationRequest__Output } from '../../../switchyard/admin/v1/CreateOrganizationRequest.js';
import type { CreateOrganizationResponse as _switchyard_admin_v1_CreateOrganizationResponse, CreateOrganizationResponse__Output as _switchyard_admin_v1_CreateOrganizationResponse__Output } from '../../../switchyard/admin/v1/CreateOrganizationResponse.js';
import type { GetOrganizationRequest as _switchyard_admin_v1_GetOrganizationRequest, GetOrganizationRequest__Output as _switchyard_admin_v1_GetOrganizationRequest__Output } from '../../../switchyard/admin/v1/GetOrganizationRequest.js';
import type { ListOrganizationsRequest as _switchyard_admin_v1_ListOrganizationsRequest, ListOrganizationsRequest__Output as _switchyard_admin_v1_ListOrganizationsRequest__Output } from '../../../switchyard/admin/v1/ListOrganizationsRequest.js';
import type { ListOrganizationsResponse as _switchyard_admin_v1_ListOrganizationsResponse, ListOrganizationsResponse__Output as _switchyard_admin_v1_ListOrganizationsResponse__Output } from '../../../switchyard/admin/v1/ListOrganizationsResponse.js';
import type { Organization as _switchyard_admin_v1_Organization, Organization__Output as _switchyard_admin_v1_Organization__Output } from '../../../switchyard/admin/v1/Organization.js';
import type { UpdateOrganizationRequest as _switchyard_admin_v1_UpdateOrganizationRequest, UpdateOrganizationRequest__Output as _switchyard_admin_v1_UpdateOrganizationRequest__Output } from '../../../switchyard/admin/v1/UpdateOrganizationRequest.js';

export interface OrganizationServiceClient extends grpc.Client {
  CreateOrganization(argument: _switchyard_admin_v1_CreateOrganizationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_CreateOrganizationResponse__Output>): grpc.ClientUnaryCall;
  CreateOrganization(argument: _switchyard_admin_v1_CreateOrganizationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_CreateOrganizationResponse__Output>): grpc.ClientUnaryCall;
  CreateOrganization(argument: _switchyard_admin_v1_CreateOrganizationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_CreateOrganizationResponse__Output>): grpc.ClientUnaryCall;
  CreateOrganization(argument: _switchyard_admin_v1_CreateOrganizationRequest, callback: grpc.requestCallback<_switchyard_admin_v1_CreateOrganizationResponse__Output>): grpc.ClientUnaryCall;
  createOrganization(argument: _switchyard_admin_v1_CreateOrganizationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_CreateOrganizationResponse__Output>): grpc.ClientUnaryCall;
  createOrganization(argument: _switchyard_admin_v1_CreateOrganizationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_CreateOrganizationResponse__Output>): grpc.ClientUnaryCall;
  createOrganization(argument: _switchyard_admin_v1_CreateOrganizationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_CreateOrganizationResponse__Output>): grpc.ClientUnaryCall;
  createOrganization(argument: _switchyard_admin_v1_CreateOrganizationRequest, callback: grpc.requestCallback<_switchyard_admin_v1_CreateOrganizationResponse__Output>): grpc.ClientUnaryCall;
  
  GetOrganization(argument: _switchyard_admin_v1_GetOrganizationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  GetOrganization(argument: _switchyard_admin_v1_GetOrganizationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  GetOrganization(argument: _switchyard_admin_v1_GetOrganizationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  GetOrganization(argument: _switchyard_admin_v1_GetOrganizationRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  getOrganization(argument: _switchyard_admin_v1_GetOrganizationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  getOrganization(argument: _switchyard_admin_v1_GetOrganizationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  getOrganization(argument: _switchyard_admin_v1_GetOrganizationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  getOrganization(argument: _switchyard_admin_v1_GetOrganizationRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  
  ListOrganizations(argument: _switchyard_admin_v1_ListOrganizationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListOrganizationsResponse__Output>): grpc.ClientUnaryCall;
  ListOrganizations(argument: _switchyard_admin_v1_ListOrganizationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListOrganizationsResponse__Output>): grpc.ClientUnaryCall;
  ListOrganizations(argument: _switchyard_admin_v1_ListOrganizationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListOrganizationsResponse__Output>): grpc.ClientUnaryCall;
  ListOrganizations(argument: _switchyard_admin_v1_ListOrganizationsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListOrganizationsResponse__Output>): grpc.ClientUnaryCall;
  listOrganizations(argument: _switchyard_admin_v1_ListOrganizationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListOrganizationsResponse__Output>): grpc.ClientUnaryCall;
  listOrganizations(argument: _switchyard_admin_v1_ListOrganizationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListOrganizationsResponse__Output>): grpc.ClientUnaryCall;
  listOrganizations(argument: _switchyard_admin_v1_ListOrganizationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListOrganizationsResponse__Output>): grpc.ClientUnaryCall;
  listOrganizations(argument: _switchyard_admin_v1_ListOrganizationsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListOrganizationsResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateOrganization(argument: _switchyard_admin_v1_UpdateOrganizationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  UpdateOrganization(argument: _switchyard_admin_v1_UpdateOrganizationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  UpdateOrganization(argument: _switchyard_admin_v1_UpdateOrganizationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  UpdateOrganization(argument: _switchyard_admin_v1_UpdateOrganizationRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  updateOrganization(argument: _switchyard_admin_v1_UpdateOrganizationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  updateOrganization(argument: _switchyard_admin_v1_UpdateOrganizationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  updateOrganization(argument: _switchyard_admin_v1_UpdateOrganizationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  updateOrganization(argument: _switchyard_admin_v1_UpdateOrganizationRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Organization__Output>): grpc.ClientUnaryCall;
  
}

export interface OrganizationServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateOrganization: grpc.handleUnaryCall<_switchyard_admin_v1_CreateOrganizationRequest__Output, _switchyard_admin_v1_CreateOrganizationResponse>;
  
  GetOrganization: grpc.handleUnaryCall<_switchyard_admin_v1_GetOrganizationRequest__Output, _switchyard_admin_v1_Organization>;
  
  ListOrganizations: grpc.handleUnaryCall<_switchyard_admin_v1_ListOrganizationsRequest__Output, _switchyard_admin_v1_ListOrganizationsResponse>;
  
  UpdateOrganization: grpc.handleUnaryCall<_switchyard_admin_v1_UpdateOrganizationRequest__Output, _switchyard_admin_v1_Organization>;
  
}

export interface OrganizationServiceDefinition extends grpc.ServiceDefinition {
  CreateOrganization: MethodDefinition<_switchyard_admin_v1_CreateOrganizationRequest, _switchyard_admin_v1_CreateOrganizationResponse, _switchyard_admin_v1_CreateOrganizationRequest__Output, _switchyard_admin_v1_CreateOrganizationResponse__Output>
  GetOrganization: MethodDefinition<_switchyard_admin_v1_GetOrganizationRequest, _switchyard_admin_v1_Organization, _switchyard_admin_v1_GetOrganizationRequest__Output, _switchyard_admin_v1_Organization__Output>
  ListOrganizations: MethodDefinition<_switchyard_admin_v1_ListOrganizationsRequest, _switchyard_admin_v1_ListOrganizationsResponse, _switchyard_admin_v1_ListOrganizationsRequest__Output, _switchyard_admin_v1_ListOrganizationsResponse__Output>
  UpdateOrganization: MethodDefinition<_switchyard_admin_v1_UpdateOrganizationRequest, _switchyard_admin_v1_Organization, _switchyard_admin_v1_UpdateOrganizationRequest__Output, _switchyard_admin_v1_Organization__Output>
}
