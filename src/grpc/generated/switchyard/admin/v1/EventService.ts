// Original file: switchyard/admin/v1/events.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { Event as _switchyard_admin_v1_Event, Event__Output as _switchyard_admin_v1_Event__Output } from '../../../switchyard/admin/v1/Event.js';
import type { ListEventsRequest as _switchyard_admin_v1_ListEventsRequest, ListEventsRequest__Output as _switchyard_admin_v1_ListEventsRequest__Output } from '../../../switchyard/admin/v1/ListEventsRequest.js';
import type { ListEventsResponse as _switchyard_admin_v1_ListEventsResponse, ListEventsResponse__Output as _switchyard_admin_v1_ListEventsResponse__Output } from '../../../switchyard/admin/v1/ListEventsResponse.js';
import type { TailEventsRequest as _switchyard_admin_v1_TailEventsRequest, TailEventsRequest__Output as _switchyard_admin_v1_TailEventsRequest__Output } from '../../../switchyard/admin/v1/TailEventsRequest.js';

export interface EventServiceClient extends grpc.Client {
  ListEvents(argument: _switchyard_admin_v1_ListEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListEventsResponse__Output>): grpc.ClientUnaryCall;
  ListEvents(argument: _switchyard_admin_v1_ListEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListEventsResponse__Output>): grpc.ClientUnaryCall;
  ListEvents(argument: _switchyard_admin_v1_ListEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListEventsResponse__Output>): grpc.ClientUnaryCall;
  ListEvents(argument: _switchyard_admin_v1_ListEventsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListEventsResponse__Output>): grpc.ClientUnaryCall;
  listEvents(argument: _switchyard_admin_v1_ListEventsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListEventsResponse__Output>): grpc.ClientUnaryCall;
  listEvents(argument: _switchyard_admin_v1_ListEventsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListEventsResponse__Output>): grpc.ClientUnaryCall;
  listEvents(argument: _switchyard_admin_v1_ListEventsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListEventsResponse__Output>): grpc.ClientUnaryCall;
  listEvents(argument: _switchyard_admin_v1_ListEventsRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListEventsResponse__Output>): grpc.ClientUnaryCall;
  
  TailEvents(argument: _switchyard_admin_v1_TailEventsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_Event__Output>;
  TailEvents(argument: _switchyard_admin_v1_TailEventsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_Event__Output>;
  tailEvents(argument: _switchyard_admin_v1_TailEventsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_Event__Output>;
  tailEvents(argument: _switchyard_admin_v1_TailEventsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_Event__Output>;
  
}

export interface EventServiceHandlers extends grpc.UntypedServiceImplementation {
  ListEvents: grpc.handleUnaryCall<_switchyard_admin_v1_ListEventsRequest__Output, _switchyard_admin_v1_ListEventsResponse>;
  
  TailEvents: grpc.handleServerStreamingCall<_switchyard_admin_v1_TailEventsRequest__Output, _switchyard_admin_v1_Event>;
  
}

export interface EventServiceDefinition extends grpc.ServiceDefinition {
  ListEvents: MethodDefinition<_switchyard_admin_v1_ListEventsRequest, _switchyard_admin_v1_ListEventsResponse, _switchyard_admin_v1_ListEventsRequest__Output, _switchyard_admin_v1_ListEventsResponse__Output>
  TailEvents: MethodDefinition<_switchyard_admin_v1_TailEventsRequest, _switchyard_admin_v1_Event, _switchyard_admin_v1_TailEventsRequest__Output, _switchyard_admin_v1_Event__Output>
}
