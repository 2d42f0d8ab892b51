// Original file: switchyard/admin/v1/outbox.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { GetOutboxEntryRequest as _switchyard_admin_v1_GetOutboxEntryRequest, GetOutboxEntryRequest__Output as _switchyard_admin_v1_GetOutboxEntryRequest__Output } from '../../../switchyard/admin/v1/GetOutboxEntryRequest.js';
import type { ListOutboxRequest as _switchyard_admin_v1_ListOutboxRequest, ListOutboxRequest__Output as _switchyard_admin_v1_ListOutboxRequest__Output } from '../../../switchyard/admin/v1/ListOutboxRequest.js';
import type { ListOutboxResponse as _switchyard_admin_v1_ListOutboxResponse, ListOutboxResponse__Output as _switchyard_admin_v1_ListOutboxResponse__Output } from '../../../switchyard/admin/v1/ListOutboxResponse.js';
import type { OutboxEntry as _switchyard_admin_v1_OutboxEntry, OutboxEntry__Output as _switchyard_admin_v1_OutboxEntry__Output } from '../../../switchyard/admin/v1/OutboxEntry.js';
import type { RetryOutboxEntryRequest as _switchyard_admin_v1_RetryOutboxEntryRequest, RetryOutboxEntryRequest__Output as _switchyard_admin_v1_RetryOutboxEntryRequest__Output } from '../../../switchyard/admin/v1/RetryOutboxEntryRequest.js';

export interface OutboxServiceClient extends grpc.Client {
  GetOutboxEntry(argument: _switchyard_admin_v1_GetOutboxEntryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  GetOutboxEntry(argument: _switchyard_admin_v1_GetOutboxEntryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  GetOutboxEntry(argument: _switchyard_admin_v1_GetOutboxEntryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  GetOutboxEntry(argument: _switchyard_admin_v1_GetOutboxEntryRequest, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  getOutboxEntry(argument: _switchyard_admin_v1_GetOutboxEntryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  getOutboxEntry(argument: _switchyard_admin_v1_GetOutboxEntryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  getOutboxEntry(argument: _switchyard_admin_v1_GetOutboxEntryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  getOutboxEntry(argument: _switchyard_admin_v1_GetOutboxEntryRequest, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  
  ListOutbox(argument: _switchyard_admin_v1_ListOutboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListOutboxResponse__Output>): grpc.ClientUnaryCall;
  ListOutbox(argument: _switchyard_admin_v1_ListOutboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListOutboxResponse__Output>): grpc.ClientUnaryCall;
  ListOutbox(argument: _switchyard_admin_v1_ListOutboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListOutboxResponse__Output>): grpc.ClientUnaryCall;
  ListOutbox(argument: _switchyard_admin_v1_ListOutboxRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListOutboxResponse__Output>): grpc.ClientUnaryCall;
  listOutbox(argument: _switchyard_admin_v1_ListOutboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListOutboxResponse__Output>): grpc.ClientUnaryCall;
  listOutbox(argument: _switchyard_admin_v1_ListOutboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListOutboxResponse__Output>): grpc.ClientUnaryCall;
  listOutbox(argument: _switchyard_admin_v1_ListOutboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListOutboxResponse__Output>): grpc.ClientUnaryCall;
  listOutbox(argument: _switchyard_admin_v1_ListOutboxRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListOutboxResponse__Output>): grpc.ClientUnaryCall;
  
  RetryOutboxEntry(argument: _switchyard_admin_v1_RetryOutboxEntryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  RetryOutboxEntry(argument: _switchyard_admin_v1_RetryOutboxEntryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  RetryOutboxEntry(argument: _switchyard_admin_v1_RetryOutboxEntryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  RetryOutboxEntry(argument: _switchyard_admin_v1_RetryOutboxEntryRequest, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  retryOutboxEntry(argument: _switchyard_admin_v1_RetryOutboxEntryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  retryOutboxEntry(argument: _switchyard_admin_v1_RetryOutboxEntryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  retryOutboxEntry(argument: _switchyard_admin_v1_RetryOutboxEntryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  retryOutboxEntry(argument: _switchyard_admin_v1_RetryOutboxEntryRequest, callback: grpc.requestCallback<_switchyard_admin_v1_OutboxEntry__Output>): grpc.ClientUnaryCall;
  
}

export interface OutboxServiceHandlers extends grpc.UntypedServiceImplementation {
  GetOutboxEntry: grpc.handleUnaryCall<_switchyard_admin_v1_GetOutboxEntryRequest__Output, _switchyard_admin_v1_OutboxEntry>;
  
  ListOutbox: grpc.handleUnaryCall<_switchyard_admin_v1_ListOutboxRequest__Output, _switchyard_admin_v1_ListOutboxResponse>;
  
  RetryOutboxEntry: grpc.handleUnaryCall<_switchyard_admin_v1_RetryOutboxEntryRequest__Output, _switchyard_admin_v1_OutboxEntry>;
  
}

export interface OutboxServiceDefinition extends grpc.ServiceDefinition {
  GetOutboxEntry: MethodDefinition<_switchyard_admin_v1_GetOutboxEntryRequest, _switchyard_admin_v1_OutboxEntry, _switchyard_admin_v1_GetOutboxEntryRequest__Output, _switchyard_admin_v1_OutboxEntry__Output>
  ListOutbox: MethodDefinition<_switchyard_admin_v1_ListOutboxRequest, _switchyard_admin_v1_ListOutboxResponse, _switchyard_admin_v1_ListOutboxRequest__Output, _switchyard_admin_v1_ListOutboxResponse__Output>
  RetryOutboxEntry: MethodDefinition<_switchyard_admin_v1_RetryOutboxEntryRequest, _switchyard_admin_v1_OutboxEntry, _switchyard_admin_v1_RetryOutboxEntryRequest__Output, _switchyard_admin_v1_OutboxEntry__Output>
}
