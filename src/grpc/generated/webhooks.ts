import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value.js';
import type { CreateWebhookRequest as _switchyard_admin_v1_CreateWebhookRequest, CreateWebhookRequest__Output as _switchyard_admin_v1_CreateWebhookRequest__Output } from './switchyard/admin/v1/CreateWebhookRequest.js';
import type { DeleteWebhookRequest as _switchyard_admin_v1_DeleteWebhookRequest, DeleteWebhookRequest__Output as _switchyard_admin_v1_DeleteWebhookRequest__Output } from './switchyard/admin/v1/DeleteWebhookRequest.js';
import type { GetDeliveryRequest as _switchyard_admin_v1_GetDeliveryRequest, GetDeliveryRequest__Output as _switchyard_admin_v1_GetDeliveryRequest__Output } from './switchyard/admin/v1/GetDeliveryRequest.js';
import type { GetWebhookRequest as _switchyard_admin_v1_GetWebhookRequest, GetWebhookRequest__Output as _switchyard_admin_v1_GetWebhookRequest__Output } from './switchyard/admin/v1/GetWebhookRequest.js';
import type { ListDeliveriesRequest as _switchyard_admin_v1_ListDeliveriesRequest, ListDeliveriesRequest__Output as _switchyard_admin_v1_ListDeliveriesRequest__Output } from './switchyard/admin/v1/ListDeliveriesRequest.js';
import type { ListDeliveriesResponse as _switchyard_admin_v1_ListDeliveriesResponse, ListDeliveriesResponse__Output as _switchyard_admin_v1_ListDeliveriesResponse__Output } from './switchyard/admin/v1/ListDeliveriesResponse.js';
import type { ListWebhooksRequest as _switchyard_admin_v1_ListWebhooksRequest, ListWebhooksRequest__Output as _switchyard_admin_v1_ListWebhooksRequest__Output } from './switchyard/admin/v1/ListWebhooksRequest.js';
import type { ListWebhooksResponse as _switchyard_admin_v1_ListWebhooksResponse, ListWebhooksResponse__Output as _switchyard_admin_v1_ListWebhooksResponse__Output } from './switchyard/admin/v1/ListWebhooksResponse.js';
import type { PauseWebhookRequest as _switchyard_admin_v1_PauseWebhookRequest, PauseWebhookRequest__Output as _switchyard_admin_v1_PauseWebhookRequest__Output } from './switchyard/admin/v1/PauseWebhookRequest.js';
import type { RecoverDeliveriesRequest as _switchyard_admin_v1_RecoverDeliveriesRequest, RecoverDeliveriesRequest__Output as _switchyard_admin_v1_RecoverDeliveriesRequest__Output } from './switchyard/admin/v1/RecoverDeliveriesRequest.js';
import type { RecoverDeliveriesResponse as _switchyard_admin_v1_RecoverDeliveriesResponse, RecoverDeliveriesResponse__Output as _switchyard_admin_v1_RecoverDeliveriesResponse__Output } from './switchyard/admin/v1/RecoverDeliveriesResponse.js';
import type { ResumeWebhookRequest as _switchyard_admin_v1_ResumeWebhookRequest, ResumeWebhookRequest__Output as _switchyard_admin_v1_ResumeWebhookRequest__Output } from './switchyard/admin/v1/ResumeWebhookRequest.js';
import type { RetryDeliveryRequest as _switchyard_admin_v1_RetryDeliveryRequest, RetryDeliveryRequest__Output as _switchyard_admin_v1_RetryDeliveryRequest__Output } from './switchyard/admin/v1/RetryDeliveryRequest.js';
import type { RotateWebhookSecretRequest as _switchyard_admin_v1_RotateWebhookSecretRequest, RotateWebhookSecretRequest__Output as _switchyard_admin_v1_RotateWebhookSecretRequest__Output } from './switchyard/admin/v1/RotateWebhookSecretRequest.js';
import type { UpdateWebhookRequest as _switchyard_admin_v1_UpdateWebhookRequest, UpdateWebhookRequest__Output as _switchyard_admin_v1_UpdateWebhookRequest__Output } from './switchyard/admin/v1/UpdateWebhookRequest.js';
import type { Webhook as _switchyard_admin_v1_Webhook, Webhook__Output as _switchyard_admin_v1_Webhook__Output } from './switchyard/admin/v1/Webhook.js';
import type { WebhookDelivery as _switchyard_admin_v1_WebhookDelivery, WebhookDelivery__Output as _switchyard_admin_v1_WebhookDelivery__Output } from './switchyard/admin/v1/WebhookDelivery.js';
import type { WebhookDeliveryAttempt as _switchyard_admin_v1_WebhookDeliveryAttempt, WebhookDeliveryAttempt__Output as _switchyard_admin_v1_WebhookDeliveryAttempt__Output } from './switchyard/admin/v1/WebhookDeliveryAttempt.js';
import type { WebhookServiceClient as _switchyard_admin_v1_WebhookServiceClient, WebhookServiceDefinition as _switchyard_admin_v1_WebhookServiceDefinition } from './switchyard/admin/v1/WebhookService.js';
import type { WebhookTestRequest as _switchyard_admin_v1_WebhookTestRequest, WebhookTestRequest__Output as _switchyard_admin_v1_WebhookTestRequest__Output } from './switchyard/admin/v1/WebhookTestRequest.js';
import type { WebhookTestResponse as _switchyard_admin_v1_WebhookTestResponse, WebhookTestResponse__Output as _switchyard_admin_v1_WebhookTestResponse__Output } from './switchyard/admin/v1/WebhookTestResponse.js';
import type { WebhookWithSecret as _switchyard_admin_v1_WebhookWithSecret, WebhookWithSecret__Output as _switchyard_admin_v1_WebhookWithSecret__Output } from './switchyard/admin/v1/WebhookWithSecret.js';

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
        CreateWebhookRequest: MessageTypeDefinition<_switchyard_admin_v1_CreateWebhookRequest, _switchyard_admin_v1_CreateWebhookRequest__Output>
        DeleteWebhookRequest: MessageTypeDefinition<_switchyard_admin_v1_DeleteWebhookRequest, _switchyard_admin_v1_DeleteWebhookRequest__Output>
        GetDeliveryRequest: MessageTypeDefinition<_switchyard_admin_v1_GetDeliveryRequest, _switchyard_admin_v1_GetDeliveryRequest__Output>
        GetWebhookRequest: MessageTypeDefinition<_switchyard_admin_v1_GetWebhookRequest, _switchyard_admin_v1_GetWebhookRequest__Output>
        ListDeliveriesRequest: MessageTypeDefinition<_switchyard_admin_v1_ListDeliveriesRequest, _switchyard_admin_v1_ListDeliveriesRequest__Output>
        ListDeliveriesResponse: MessageTypeDefinition<_switchyard_admin_v1_ListDeliveriesResponse, _switchyard_admin_v1_ListDeliveriesResponse__Output>
        ListWebhooksRequest: MessageTypeDefinition<_switchyard_admin_v1_ListWebhooksRequest, _switchyard_admin_v1_ListWebhooksRequest__Output>
        ListWebhooksResponse: MessageTypeDefinition<_switchyard_admin_v1_ListWebhooksResponse, _switchyard_admin_v1_ListWebhooksResponse__Output>
        PauseWebhookRequest: MessageTypeDefinition<_switchyard_admin_v1_PauseWebhookRequest, _switchyard_admin_v1_PauseWebhookRequest__Output>
        RecoverDeliveriesRequest: MessageTypeDefinition<_switchyard_admin_v1_RecoverDeliveriesRequest, _switchyard_admin_v1_RecoverDeliveriesRequest__Output>
        RecoverDeliveriesResponse: MessageTypeDefinition<_switchyard_admin_v1_RecoverDeliveriesResponse, _switchyard_admin_v1_RecoverDeliveriesResponse__Output>
        ResumeWebhookRequest: MessageTypeDefinition<_switchyard_admin_v1_ResumeWebhookRequest, _switchyard_admin_v1_ResumeWebhookRequest__Output>
        RetryDeliveryRequest: MessageTypeDefinition<_switchyard_admin_v1_RetryDeliveryRequest, _switchyard_admin_v1_RetryDeliveryRequest__Output>
        RotateWebhookSecretRequest: MessageTypeDefinition<_switchyard_admin_v1_RotateWebhookSecretRequest, _switchyard_admin_v1_RotateWebhookSecretRequest__Output>
        UpdateWebhookRequest: MessageTypeDefinition<_switchyard_admin_v1_UpdateWebhookRequest, _switchyard_admin_v1_UpdateWebhookRequest__Output>
        Webhook: MessageTypeDefinition<_switchyard_admin_v1_Webhook, _switchyard_admin_v1_Webhook__Output>
        WebhookDelivery: MessageTypeDefinition<_switchyard_admin_v1_WebhookDelivery, _switchyard_admin_v1_WebhookDelivery__Output>
        WebhookDeliveryAttempt: MessageTypeDefinition<_switchyard_admin_v1_WebhookDeliveryAttempt, _switchyard_admin_v1_WebhookDeliveryAttempt__Output>
        WebhookService: SubtypeConstructor<typeof grpc.Client, _switchyard_admin_v1_WebhookServiceClient> & { service: _switchyard_admin_v1_WebhookServiceDefinition }
        WebhookTestRequest: MessageTypeDefinition<_switchyard_admin_v1_WebhookTestRequest, _switchyard_admin_v1_WebhookTestRequest__Output>
        WebhookTestResponse: MessageTypeDefinition<_switchyard_admin_v1_WebhookTestResponse, _switchyard_admin_v1_WebhookTestResponse__Output>
        WebhookWithSecret: MessageTypeDefinition<_switchyard_admin_v1_WebhookWithSecret, _switchyard_admin_v1_WebhookWithSecret__Output>
      }
    }
  }
}

