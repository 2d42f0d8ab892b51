// Original file: switchyard/admin/v1/webhooks.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateWebhookRequest as _switchyard_admin_v1_CreateWebhookRequest, CreateWebhookRequest__Output as _switchyard_admin_v1_CreateWebhookRequest__Output } from '../../../switchyard/admin/v1/CreateWebhookRequest.js';
import type { DeleteWebhookRequest as _switchyard_admin_v1_DeleteWebhookRequest, DeleteWebhookRequest__Output as _switchyard_admin_v1_DeleteWebhookRequest__Output } from '../../../switchyard/admin/v1/DeleteWebhookRequest.js';
import type { GetDeliveryRequest as _switchyard_admin_v1_GetDeliveryRequest, GetDeliveryRequest__Output as _switchyard_admin_v1_GetDeliveryRequest__Output } from '../../../switchyard/admin/v1/GetDeliveryRequest.js';
import type { GetWebhookRequest as _switchyard_admin_v1_GetWebhookRequest, GetWebhookRequest__Output as _switchyard_admin_v1_GetWebhookRequest__Output } from '../../../switchyard/admin/v1/GetWebhookRequest.js';
import type { ListDeliveriesRequest as _switchyard_admin_v1_ListDeliveriesRequest, ListDeliveriesRequest__Output as _switchyard_admin_v1_ListDeliveriesRequest__Output } from '../../../switchyard/admin/v1/ListDeliveriesRequest.js';
import type { ListDeliveriesResponse as _switchyard_admin_v1_ListDeliveriesResponse, ListDeliveriesResponse__Output as _switchyard_admin_v1_ListDeliveriesResponse__Output } from '../../../switchyard/admin/v1/ListDeliveriesResponse.js';
import type { ListWebhooksRequest as _switchyard_admin_v1_ListWebhooksRequest, ListWebhooksRequest__Output as _switchyard_admin_v1_ListWebhooksRequest__Output } from '../../../switchyard/admin/v1/ListWebhooksRequest.js';
import type { ListWebhooksResponse as _switchyard_admin_v1_ListWebhooksResponse, ListWebhooksResponse__Output as _switchyard_admin_v1_ListWebhooksResponse__Output } from '../../../switchyard/admin/v1/ListWebhooksResponse.js';
import type { PauseWebhookRequest as _switchyard_admin_v1_PauseWebhookRequest, PauseWebhookRequest__Output as _switchyard_admin_v1_PauseWebhookRequest__Output } from '../../../switchyard/admin/v1/PauseWebhookRequest.js';
import type { RecoverDeliveriesRequest as _switchyard_admin_v1_RecoverDeliveriesRequest, RecoverDeliveriesRequest__Output as _switchyard_admin_v1_RecoverDeliveriesRequest__Output } from '../../../switchyard/admin/v1/RecoverDeliveriesRequest.js';
import type { RecoverDeliveriesResponse as _switchyard_admin_v1_RecoverDeliveriesResponse, RecoverDeliveriesResponse__Output as _switchyard_admin_v1_RecoverDeliveriesResponse__Output } from '../../../switchyard/admin/v1/RecoverDeliveriesResponse.js';
import type { ResumeWebhookRequest as _switchyard_admin_v1_ResumeWebhookRequest, ResumeWebhookRequest__Output as _switchyard_admin_v1_ResumeWebhookRequest__Output } from '../../../switchyard/admin/v1/ResumeWebhookRequest.js';
import type { RetryDeliveryRequest as _switchyard_admin_v1_RetryDeliveryRequest, RetryDeliveryRequest__Output as _switchyard_admin_v1_RetryDeliveryRequest__Output } from '../../../switchyard/admin/v1/RetryDeliveryRequest.js';
import type { RotateWebhookSecretRequest as _switchyard_admin_v1_RotateWebhookSecretRequest, RotateWebhookSecretRequest__Output as _switchyard_admin_v1_RotateWebhookSecretRequest__Output } from '../../../switchyard/admin/v1/RotateWebhookSecretRequest.js';
import type { UpdateWebhookRequest as _switchyard_admin_v1_UpdateWebhookRequest, UpdateWebhookRequest__Output as _switchyard_admin_v1_UpdateWebhookRequest__Output } from '../../../switchyard/admin/v1/UpdateWebhookRequest.js';
import type { Webhook as _switchyard_admin_v1_Webhook, Webhook__Output as _switchyard_admin_v1_Webhook__Output } from '../../../switchyard/admin/v1/Webhook.js';
import type { WebhookDelivery as _switchyard_admin_v1_WebhookDelivery, WebhookDelivery__Output as _switchyard_admin_v1_WebhookDelivery__Output } from '../../../switchyard/admin/v1/WebhookDelivery.js';
import type { WebhookTestRequest as _switchyard_admin_v1_WebhookTestRequest, WebhookTestRequest__Output as _switchyard_admin_v1_WebhookTestRequest__Output } from '../../../switchyard/admin/v1/WebhookTestRequest.js';
import type { WebhookTestResponse as _switchyard_admin_v1_WebhookTestResponse, WebhookTestResponse__Output as _switchyard_admin_v1_WebhookTestResponse__Output } from '../../../switchyard/admin/v1/WebhookTestResponse.js';
import type { WebhookWithSecret as _switchyard_admin_v1_WebhookWithSecret, WebhookWithSecret__Output as _switchyard_admin_v1_WebhookWithSecret__Output } from '../../../switchyard/admin/v1/WebhookWithSecret.js';

export interface WebhookServiceClient extends grpc.Client {
  CreateWebhook(argument: _switchyard_admin_v1_CreateWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  CreateWebhook(argument: _switchyard_admin_v1_CreateWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  CreateWebhook(argument: _switchyard_admin_v1_CreateWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  CreateWebhook(argument: _switchyard_admin_v1_CreateWebhookRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _switchyard_admin_v1_CreateWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _switchyard_admin_v1_CreateWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _switchyard_admin_v1_CreateWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  createWebhook(argument: _switchyard_admin_v1_CreateWebhookRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  
  DeleteWebhook(argument: _switchyard_admin_v1_DeleteWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  DeleteWebhook(argument: _switchyard_admin_v1_DeleteWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  DeleteWebhook(argument: _switchyard_admin_v1_DeleteWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  DeleteWebhook(argument: _switchyard_admin_v1_DeleteWebhookRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _switchyard_admin_v1_DeleteWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _switchyard_admin_v1_DeleteWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _switchyard_admin_v1_DeleteWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  deleteWebhook(argument: _switchyard_admin_v1_DeleteWebhookRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  
  GetDelivery(argument: _switchyard_admin_v1_GetDeliveryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  GetDelivery(argument: _switchyard_admin_v1_GetDeliveryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  GetDelivery(argument: _switchyard_admin_v1_GetDeliveryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  GetDelivery(argument: _switchyard_admin_v1_GetDeliveryRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  getDelivery(argument: _switchyard_admin_v1_GetDeliveryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  getDelivery(argument: _switchyard_admin_v1_GetDeliveryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  getDelivery(argument: _switchyard_admin_v1_GetDeliveryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  getDelivery(argument: _switchyard_admin_v1_GetDeliveryRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  
  GetWebhook(argument: _switchyard_admin_v1_GetWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  GetWebhook(argument: _switchyard_admin_v1_GetWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  GetWebhook(argument: _switchyard_admin_v1_GetWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  GetWebhook(argument: _switchyard_admin_v1_GetWebhookRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _switchyard_admin_v1_GetWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _switchyard_admin_v1_GetWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _switchyard_admin_v1_GetWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  getWebhook(argument: _switchyard_admin_v1_GetWebhookRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  
  ListDeliveries(argument: _switchyard_admin_v1_ListDeliveriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  ListDeliveries(argument: _switchyard_admin_v1_ListDeliveriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  ListDeliveries(argument: _switchyard_admin_v1_ListDeliveriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  ListDeliveries(argument: _switchyard_admin_v1_ListDeliveriesRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listDeliveries(argument: _switchyard_admin_v1_ListDeliveriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listDeliveries(argument: _switchyard_admin_v1_ListDeliveriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listDeliveries(argument: _switchyard_admin_v1_ListDeliveriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  listDeliveries(argument: _switchyard_admin_v1_ListDeliveriesRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  
  ListWebhooks(argument: _switchyard_admin_v1_ListWebhooksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  ListWebhooks(argument: _switchyard_admin_v1_ListWebhooksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  ListWebhooks(argument: _switchyard_admin_v1_ListWebhooksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  ListWebhooks(argument: _switchyard_admin_v1_ListWebhooksRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _switchyard_admin_v1_ListWebhooksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _switchyard_admin_v1_ListWebhooksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _switchyard_admin_v1_ListWebhooksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  listWebhooks(argument: _switchyard_admin_v1_ListWebhooksRequest, callback: grpc.requestCallback<_switchyard_admin_v1_ListWebhooksResponse__Output>): grpc.ClientUnaryCall;
  
  PauseWebhook(argument: _switchyard_admin_v1_PauseWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  PauseWebhook(argument: _switchyard_admin_v1_PauseWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  PauseWebhook(argument: _switchyard_admin_v1_PauseWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  PauseWebhook(argument: _switchyard_admin_v1_PauseWebhookRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  pauseWebhook(argument: _switchyard_admin_v1_PauseWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  pauseWebhook(argument: _switchyard_admin_v1_PauseWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  pauseWebhook(argument: _switchyard_admin_v1_PauseWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  pauseWebhook(argument: _switchyard_admin_v1_PauseWebhookRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  
  RecoverDeliveries(argument: _switchyard_admin_v1_RecoverDeliveriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_RecoverDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  RecoverDeliveries(argument: _switchyard_admin_v1_RecoverDeliveriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_RecoverDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  RecoverDeliveries(argument: _switchyard_admin_v1_RecoverDeliveriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_RecoverDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  RecoverDeliveries(argument: _switchyard_admin_v1_RecoverDeliveriesRequest, callback: grpc.requestCallback<_switchyard_admin_v1_RecoverDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  recoverDeliveries(argument: _switchyard_admin_v1_RecoverDeliveriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_RecoverDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  recoverDeliveries(argument: _switchyard_admin_v1_RecoverDeliveriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_RecoverDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  recoverDeliveries(argument: _switchyard_admin_v1_RecoverDeliveriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_RecoverDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  recoverDeliveries(argument: _switchyard_admin_v1_RecoverDeliveriesRequest, callback: grpc.requestCallback<_switchyard_admin_v1_RecoverDeliveriesResponse__Output>): grpc.ClientUnaryCall;
  
  ResumeWebhook(argument: _switchyard_admin_v1_ResumeWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  ResumeWebhook(argument: _switchyard_admin_v1_ResumeWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  ResumeWebhook(argument: _switchyard_admin_v1_ResumeWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  ResumeWebhook(argument: _switchyard_admin_v1_ResumeWebhookRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  resumeWebhook(argument: _switchyard_admin_v1_ResumeWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  resumeWebhook(argument: _switchyard_admin_v1_ResumeWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  resumeWebhook(argument: _switchyard_admin_v1_ResumeWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  resumeWebhook(argument: _switchyard_admin_v1_ResumeWebhookRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  
  RetryDelivery(argument: _switchyard_admin_v1_RetryDeliveryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  RetryDelivery(argument: _switchyard_admin_v1_RetryDeliveryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  RetryDelivery(argument: _switchyard_admin_v1_RetryDeliveryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  RetryDelivery(argument: _switchyard_admin_v1_RetryDeliveryRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  retryDelivery(argument: _switchyard_admin_v1_RetryDeliveryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  retryDelivery(argument: _switchyard_admin_v1_RetryDeliveryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  retryDelivery(argument: _switchyard_admin_v1_RetryDeliveryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  retryDelivery(argument: _switchyard_admin_v1_RetryDeliveryRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookDelivery__Output>): grpc.ClientUnaryCall;
  
  RotateWebhookSecret(argument: _switchyard_admin_v1_RotateWebhookSecretRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  RotateWebhookSecret(argument: _switchyard_admin_v1_RotateWebhookSecretRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  RotateWebhookSecret(argument: _switchyard_admin_v1_RotateWebhookSecretRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  RotateWebhookSecret(argument: _switchyard_admin_v1_RotateWebhookSecretRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _switchyard_admin_v1_RotateWebhookSecretRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _switchyard_admin_v1_RotateWebhookSecretRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _switchyard_admin_v1_RotateWebhookSecretRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  rotateWebhookSecret(argument: _switchyard_admin_v1_RotateWebhookSecretRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookWithSecret__Output>): grpc.ClientUnaryCall;
  
  UpdateWebhook(argument: _switchyard_admin_v1_UpdateWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  UpdateWebhook(argument: _switchyard_admin_v1_UpdateWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  UpdateWebhook(argument: _switchyard_admin_v1_UpdateWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  UpdateWebhook(argument: _switchyard_admin_v1_UpdateWebhookRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _switchyard_admin_v1_UpdateWebhookRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _switchyard_admin_v1_UpdateWebhookRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _switchyard_admin_v1_UpdateWebhookRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  updateWebhook(argument: _switchyard_admin_v1_UpdateWebhookRequest, callback: grpc.requestCallback<_switchyard_admin_v1_Webhook__Output>): grpc.ClientUnaryCall;
  
  WebhookTest(argument: _switchyard_admin_v1_WebhookTestRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookTestResponse__Output>): grpc.ClientUnaryCall;
  WebhookTest(argument: _switchyard_admin_v1_WebhookTestRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookTestResponse__Output>): grpc.ClientUnaryCall;
  WebhookTest(argument: _switchyard_admin_v1_WebhookTestRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookTestResponse__Output>): grpc.ClientUnaryCall;
  WebhookTest(argument: _switchyard_admin_v1_WebhookTestRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookTestResponse__Output>): grpc.ClientUnaryCall;
  webhookTest(argument: _switchyard_admin_v1_WebhookTestRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookTestResponse__Output>): grpc.ClientUnaryCall;
  webhookTest(argument: _switchyard_admin_v1_WebhookTestRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookTestResponse__Output>): grpc.ClientUnaryCall;
  webhookTest(argument: _switchyard_admin_v1_WebhookTestRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookTestResponse__Output>): grpc.ClientUnaryCall;
  webhookTest(argument: _switchyard_admin_v1_WebhookTestRequest, callback: grpc.requestCallback<_switchyard_admin_v1_WebhookTestResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface WebhookServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateWebhook: grpc.handleUnaryCall<_switchyard_admin_v1_CreateWebhookRequest__Output, _switchyard_admin_v1_WebhookWithSecret>;
  
  DeleteWebhook: grpc.handleUnaryCall<_switchyard_admin_v1_DeleteWebhookRequest__Output, _switchyard_admin_v1_Webhook>;
  
  GetDelivery: grpc.handleUnaryCall<_switchyard_admin_v1_GetDeliveryRequest__Output, _switchyard_admin_v1_WebhookDelivery>;
  
  GetWebhook: grpc.handleUnaryCall<_switchyard_admin_v1_GetWebhookRequest__Output, _switchyard_admin_v1_Webhook>;
  
  ListDeliveries: grpc.handleUnaryCall<_switchyard_admin_v1_ListDeliveriesRequest__Output, _switchyard_admin_v1_ListDeliveriesResponse>;
  
  ListWebhooks: grpc.handleUnaryCall<_switchyard_admin_v1_ListWebhooksRequest__Output, _switchyard_admin_v1_ListWebhooksResponse>;
  
  PauseWebhook: grpc.handleUnaryCall<_switchyard_admin_v1_PauseWebhookRequest__Output, _switchyard_admin_v1_Webhook>;
  
  RecoverDeliveries: grpc.handleUnaryCall<_switchyard_admin_v1_RecoverDeliveriesRequest__Output, _switchyard_admin_v1_RecoverDeliveriesResponse>;
  
  ResumeWebhook: grpc.handleUnaryCall<_switchyard_admin_v1_ResumeWebhookRequest__Output, _switchyard_admin_v1_Webhook>;
  
  RetryDelivery: grpc.handleUnaryCall<_switchyard_admin_v1_RetryDeliveryRequest__Output, _switchyard_admin_v1_WebhookDelivery>;
  
  RotateWebhookSecret: grpc.handleUnaryCall<_switchyard_admin_v1_RotateWebhookSecretRequest__Output, _switchyard_admin_v1_WebhookWithSecret>;
  
  UpdateWebhook: grpc.handleUnaryCall<_switchyard_admin_v1_UpdateWebhookRequest__Output, _switchyard_admin_v1_Webhook>;
  
  WebhookTest: grpc.handleUnaryCall<_switchyard_admin_v1_WebhookTestRequest__Output, _switchyard_admin_v1_WebhookTestResponse>;
  
}

export interface WebhookServiceDefinition extends grpc.ServiceDefinition {
  CreateWebhook: MethodDefinition<_switchyard_admin_v1_CreateWebhookRequest, _switchyard_admin_v1_WebhookWithSecret, _switchyard_admin_v1_CreateWebhookRequest__Output, _switchyard_admin_v1_WebhookWithSecret__Output>
  DeleteWebhook: MethodDefinition<_switchyard_admin_v1_DeleteWebhookRequest, _switchyard_admin_v1_Webhook, _switchyard_admin_v1_DeleteWebhookRequest__Output, _switchyard_admin_v1_Webhook__Output>
  GetDelivery: MethodDefinition<_switchyard_admin_v1_GetDeliveryRequest, _switchyard_admin_v1_WebhookDelivery, _switchyard_admin_v1_GetDeliveryRequest__Output, _switchyard_admin_v1_WebhookDelivery__Output>
  GetWebhook: MethodDefinition<_switchyard_admin_v1_GetWebhookRequest, _switchyard_admin_v1_Webhook, _switchyard_admin_v1_GetWebhookRequest__Output, _switchyard_admin_v1_Webhook__Output>
  ListDeliveries: MethodDefinition<_switchyard_admin_v1_ListDeliveriesRequest, _switchyard_admin_v1_ListDeliveriesResponse, _switchyard_admin_v1_ListDeliveriesRequest__Output, _switchyard_admin_v1_ListDeliveriesResponse__Output>
  ListWebhooks: MethodDefinition<_switchyard_admin_v1_ListWebhooksRequest, _switchyard_admin_v1_ListWebhooksResponse, _switchyard_admin_v1_ListWebhooksRequest__Output, _switchyard_admin_v1_ListWebhooksResponse__Output>
  PauseWebhook: MethodDefinition<_switchyard_admin_v1_PauseWebhookRequest, _switchyard_admin_v1_Webhook, _switchyard_admin_v1_PauseWebhookRequest__Output, _switchyard_admin_v1_Webhook__Output>
  RecoverDeliveries: MethodDefinition<_switchyard_admin_v1_RecoverDeliveriesRequest, _switchyard_admin_v1_RecoverDeliveriesResponse, _switchyard_admin_v1_RecoverDeliveriesRequest__Output, _switchyard_admin_v1_RecoverDeliveriesResponse__Output>
  ResumeWebhook: MethodDefinition<_switchyard_admin_v1_ResumeWebhookRequest, _switchyard_admin_v1_Webhook, _switchyard_admin_v1_ResumeWebhookRequest__Output, _switchyard_admin_v1_Webhook__Output>
  RetryDelivery: MethodDefinition<_switchyard_admin_v1_RetryDeliveryRequest, _switchyard_admin_v1_WebhookDelivery, _switchyard_admin_v1_RetryDeliveryRequest__Output, _switchyard_admin_v1_WebhookDelivery__Output>
  RotateWebhookSecret: MethodDefinition<_switchyard_admin_v1_RotateWebhookSecretRequest, _switchyard_admin_v1_WebhookWithSecret, _switchyard_admin_v1_RotateWebhookSecretRequest__Output, _switchyard_admin_v1_WebhookWithSecret__Output>
  UpdateWebhook: MethodDefinition<_switchyard_admin_v1_UpdateWebhookRequest, _switchyard_admin_v1_Webhook, _switchyard_admin_v1_UpdateWebhookRequest__Output, _switchyard_admin_v1_Webhook__Output>
  WebhookTest: MethodDefinition<_switchyard_admin_v1_WebhookTestRequest, _switchyard_admin_v1_WebhookTestResponse, _switchyard_admin_v1_WebhookTestRequest__Output, _switchyard_admin_v1_WebhookTestResponse__Output>
}
