// Original file: switchyard/admin/v1/events.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { Event as _switchyard_admin_v1_Event, Event__Output as _switchyard_admin_v1_Event__Output } from '../../../switchyard/admin/v1/Event.js';
import type { TailEventsRequest as _switchyard_admin_v1_TailEventsRequest, TailEventsRequest__Output as _switchyard_admin_v1_TailEventsRequest__Output } from '../../../switchyard/admin/v1/TailEventsRequest.js';

export interface EventServiceClient extends grpc.Client {
  TailEvents(argument: _switchyard_admin_v1_TailEventsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_Event__Output>;
  TailEvents(argument: _switchyard_admin_v1_TailEventsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_Event__Output>;
  tailEvents(argument: _switchyard_admin_v1_TailEventsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_Event__Output>;
  tailEvents(argument: _switchyard_admin_v1_TailEventsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_switchyard_admin_v1_Event__Output>;
  
}

export interface EventServiceHandlers extends grpc.UntypedServiceImplementation {
  TailEvents: grpc.handleServerStreamingCall<_switchyard_admin_v1_TailEventsRequest__Output, _switchyard_admin_v1_Event>;
  
}

export interface EventServiceDefinition extends grpc.ServiceDefinition {
  TailEvents: MethodDefinition<_switchyard_admin_v1_TailEventsRequest, _switchyard_admin_v1_Event, _switchyard_admin_v1_TailEventsRequest__Output, _switchyard_admin_v1_Event__Output>
}
