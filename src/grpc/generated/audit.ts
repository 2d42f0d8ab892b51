import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value.js';
import type { AuditActor as _switchyard_admin_v1_AuditActor, AuditActor__Output as _switchyard_admin_v1_AuditActor__Output } from './switchyard/admin/v1/AuditActor.js';
import type { AuditRecord as _switchyard_admin_v1_AuditRecord, AuditRecord__Output as _switchyard_admin_v1_AuditRecord__Output } from './switchyard/admin/v1/AuditRecord.js';
import type { AuditServiceClient as _switchyard_admin_v1_AuditServiceClient, AuditServiceDefinition as _switchyard_admin_v1_AuditServiceDefinition } from './switchyard/admin/v1/AuditService.js';
import type { AuditTarget as _switchyard_admin_v1_AuditTarget, AuditTarget__Output as _switchyard_admin_v1_AuditTarget__Output } from './switchyard/admin/v1/AuditTarget.js';
import type { ListAuditLogRequest as _switchyard_admin_v1_ListAuditLogRequest, ListAuditLogRequest__Output as _switchyard_admin_v1_ListAuditLogRequest__Output } from './switchyard/admin/v1/ListAuditLogRequest.js';
import type { ListAuditLogResponse as _switchyard_admin_v1_ListAuditLogResponse, ListAuditLogResponse__Output as _switchyard_admin_v1_ListAuditLogResponse__Output } from './switchyard/admin/v1/ListAuditLogResponse.js';

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
        AuditActor: MessageTypeDefinition<_switchyard_admin_v1_AuditActor, _switchyard_admin_v1_AuditActor__Output>
        AuditRecord: MessageTypeDefinition<_switchyard_admin_v1_AuditRecord, _switchyard_admin_v1_AuditRecord__Output>
        AuditService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_AuditServiceClient> & { service: _switchyard_admin_v1_AuditServiceDefinition }
        AuditTarget: MessageTypeDefinition<_switchyard_admin_v1_AuditTarget, _switchyard_admin_v1_AuditTarget__Output>
        ListAuditLogRequest: MessageTypeDefinition<_switchyard_admin_v1_ListAuditLogRequest, _switchyard_admin_v1_ListAuditLogRequest__Output>
        ListAuditLogResponse: MessageTypeDefinition<_switchyard_admin_v1_ListAuditLogResponse, _switchyard_admin_v1_ListAuditLogResponse__Output>
      }
    }
  }
}

