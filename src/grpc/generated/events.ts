import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value.js';
import type { Event as _switchyard_admin_v1_Event, Event__Output as _switchyard_admin_v1_Event__Output } from './switchyard/admin/v1/Event.js';
import type { EventServiceClient as _switchyard_admin_v1_EventServiceClient, EventServiceDefinition as _switchyard_admin_v1_EventServiceDefinition } from './switchyard/admin/v1/EventService.js';
import type { ListEventsRequest as _switchyard_admin_v1_ListEventsRequest, ListEventsRequest__Output as _switchyard_admin_v1_ListEventsRequest__Output } from './switchyard/admin/v1/ListEventsRequest.js';
import type { ListEventsResponse as _switchyard_admin_v1_ListEventsResponse, ListEventsResponse__Output as _switchyard_admin_v1_ListEventsResponse__Output } from './switchyard/admin/v1/ListEventsResponse.js';
import type { TailEventsRequest as _switchyard_admin_v1_TailEventsRequest, TailEventsRequest__Output as _switchyard_admin_v1_TailEventsRequest__Output } from './switchyard/admin/v1/TailEventsRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      ListValue: MessageTypeDefinition<_google_protobuf_ListValue, _google_protobuf_ListValue__Output>
      NullValue: EnumTypeDefinition
      Struct: MessageTypeDefinition<_google_protobuf_Struct, _google_protobuf_Struct__Output>
      Value: MessageTypeDefinition<_google_protobuf_Value, _google_protobuf_Value__Output>
    }
  }
  switchyard: {
    admin: {
      v1: {
        Event: MessageTypeDefinition<_switchyard_admin_v1_Event, _switchyard_admin_v1_Event__Output>
        EventService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_EventServiceClient> & { service: _switchyard_admin_v1_EventServiceDefinition }
        ListEventsRequest: MessageTypeDefinition<_switchyard_admin_v1_ListEventsRequest, _switchyard_admin_v1_ListEventsRequest__Output>
        ListEventsResponse: MessageTypeDefinition<_switchyard_admin_v1_ListEventsResponse, _switchyard_admin_v1_ListEventsResponse__Output>
        TailEventsRequest: MessageTypeDefinition<_switchyard_admin_v1_TailEventsRequest, _switchyard_admin_v1_TailEventsRequest__Output>
      }
    }
  }
}

