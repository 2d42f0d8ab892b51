import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { EmailAttempt as _switchyard_admin_v1_EmailAttempt, EmailAttempt__Output as _switchyard_admin_v1_EmailAttempt__Output } from './switchyard/admin/v1/EmailAttempt.js';
import type { GetOutboxEntryRequest as _switchyard_admin_v1_GetOutboxEntryRequest, GetOutboxEntryRequest__Output as _switchyard_admin_v1_GetOutboxEntryRequest__Output } from './switchyard/admin/v1/GetOutboxEntryRequest.js';
import type { ListOutboxRequest as _switchyard_admin_v1_ListOutboxRequest, ListOutboxRequest__Output as _switchyard_admin_v1_ListOutboxRequest__Output } from './switchyard/admin/v1/ListOutboxRequest.js';
import type { ListOutboxResponse as _switchyard_admin_v1_ListOutboxResponse, ListOutboxResponse__Output as _switchyard_admin_v1_ListOutboxResponse__Output } from './switchyard/admin/v1/ListOutboxResponse.js';
import type { OutboxEntry as _switchyard_admin_v1_OutboxEntry, OutboxEntry__Output as _switchyard_admin_v1_OutboxEntry__Output } from './switchyard/admin/v1/OutboxEntry.js';
import type { OutboxServiceClient as _switchyard_admin_v1_OutboxServiceClient, OutboxServiceDefinition as _switchyard_admin_v1_OutboxServiceDefinition } from './switchyard/admin/v1/OutboxService.js';
import type { RetryOutboxEntryRequest as _switchyard_admin_v1_RetryOutboxEntryRequest, RetryOutboxEntryRequest__Output as _switchyard_admin_v1_RetryOutboxEntryRequest__Output } from './switchyard/admin/v1/RetryOutboxEntryRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  switchyard: {
    admin: {
      v1: {
        EmailAttempt: MessageTypeDefinition<_switchyard_admin_v1_EmailAttempt, _switchyard_admin_v1_EmailAttempt__Output>
        GetOutboxEntryRequest: MessageTypeDefinition<_switchyard_admin_v1_GetOutboxEntryRequest, _switchyard_admin_v1_GetOutboxEntryRequest__Output>
        ListOutboxRequest: MessageTypeDefinition<_switchyard_admin_v1_ListOutboxRequest, _switchyard_admin_v1_ListOutboxRequest__Output>
        ListOutboxResponse: MessageTypeDefinition<_switchyard_admin_v1_ListOutboxResponse, _switchyard_admin_v1_ListOutboxResponse__Output>
        OutboxEntry: MessageTypeDefinition<_switchyard_admin_v1_OutboxEntry, _switchyard_admin_v1_OutboxEntry__Output>
        OutboxService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_OutboxServiceClient> & { service: _switchyard_admin_v1_OutboxServiceDefinition }
        RetryOutboxEntryRequest: MessageTypeDefinition<_switchyard_admin_v1_RetryOutboxEntryRequest, _switchyard_admin_v1_RetryOutboxEntryRequest__Output>
      }
    }
  }
}

