import { z } from 'zod';
import {
  createWebhookBody,
  deliveryIdSchema,
  deliverySchema,
  organizationDeliveriesQuery,
  recoverBody,
  recoverResultSchema,
  rotateSecretBody,
  testEventResultSchema,
  updateWebhookBody,
  webhookSchema,
  webhookWithSecretSchema,
} from '../../domain/webhooks/schemas.js';
import type { Services } from '../../areas.js';
import { AppError } from '../../errors.js';
import { defineRoute, idParams, pageQuery, Reply } from '../route.js';

const deliveryParams = idParams('id').extend({ delivery_id: deliveryIdSchema });

/**
 * A webhook as /v1 answers it: an organization's (webhookSchema's organization_id is an id). A
 * platform webhook is the operator's, over gRPC; should one reach here it is 404, as another
 * organization's resource is.
 */
function ofOrganization<W extends { organization_id: string | null }>(webhook: W): W & { organization_id: string } {
  if (webhook.organization_id === null) throw new AppError('not_found', 'webhook not found');
  return { ...webhook, organization_id: webhook.organization_id };
}

/** Spec 4.5 and contract 7: webhooks of an organization, their deliveries, redelivery, rotation. */
export function webhookRoutes({ webhooks }: Services) {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/organizations/:id/webhooks',
      summary: 'Register a webhook (admin); the answer shows its secret, once',
      tag: 'webhooks',
      params: idParams('id'),
      body: createWebhookBody,
      response: webhookWithSecretSchema,
      status: 201,
      handler: async (ctx) => ofOrganization(await webhooks.createWebhook(ctx.caller, ctx.params.id, ctx.body)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/organizations/:id/webhooks',
      summary: "The organization's webhooks, oldest first (admin)",
      tag: 'webhooks',
      params: idParams('id'),
      query: pageQuery,
      response: z.array(webhookSchema),
      handler: async (ctx) => Reply.page(await webhooks.listWebhooks(ctx.caller, ctx.params.id, ctx.query), ofOrganization),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/organizations/:id/deliveries',
      summary: 'The deliveries of every webhook of the organization, newest first, by webhook, status and time (admin)',
      tag: 'webhooks',
      params: idParams('id'),
      query: organizationDeliveriesQuery,
      response: z.array(deliverySchema),
      handler: async (ctx) => {
        const { limit, cursor, webhook_id: webhookId, status, since, until } = ctx.query;
        const filters = { webhookId, status, since, until };
        return Reply.page(await webhooks.listOrganizationDeliveries(ctx.caller, ctx.params.id, filters, { limit, cursor }));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/webhooks/:id',
      summary: 'One webhook (admin)',
      tag: 'webhooks',
      params: idParams('id'),
      response: webhookSchema,
      handler: async (ctx) => ofOrganization(await webhooks.getWebhook(ctx.caller, ctx.params.id)),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/v1/webhooks/:id',
      summary: 'Change a webhook: active (false pauses, true resumes), description, filters, state, max_retries',
      tag: 'webhooks',
      params: idParams('id'),
      body: updateWebhookBody,
      response: webhookSchema,
      handler: async (ctx) => ofOrganization(await webhooks.updateWebhook(ctx.caller, ctx.params.id, ctx.body)),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/webhooks/:id',
      summary: 'Delete a webhook (soft): nothing more is sent, pending deliveries end failed',
      tag: 'webhooks',
      params: idParams('id'),
      response: webhookSchema,
      handler: async (ctx) => ofOrganization(await webhooks.deleteWebhook(ctx.caller, ctx.params.id)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/webhooks/:id/deliveries',
      summary: "A webhook's delivery records, oldest first, each with its attempts",
      tag: 'webhooks',
      params: idParams('id'),
      query: pageQuery,
      response: z.array(deliverySchema),
      handler: async (ctx) => Reply.page(await webhooks.listDeliveries(ctx.caller, ctx.params.id, ctx.query)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/webhooks/:id/deliveries/:delivery_id',
      summary: 'One delivery record',
      tag: 'webhooks',
      params: deliveryParams,
      response: deliverySchema,
      handler: async (ctx) => webhooks.getDelivery(ctx.caller, ctx.params.id, ctx.params.delivery_id),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/webhooks/:id/deliveries/:delivery_id/retry',
      summary: 'Send a delivered or failed delivery again, now',
      tag: 'webhooks',
      params: deliveryParams,
      response: deliverySchema,
      handler: async (ctx) => webhooks.retryDelivery(ctx.caller, ctx.params.id, ctx.params.delivery_id),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/webhooks/:id/test',
      summary: 'Send a signed webhook.test event to this webhook alone (admin); its delivery follows',
      tag: 'webhooks',
      params: idParams('id'),
      response: testEventResultSchema,
      status: 202,
      handler: async (ctx) => webhooks.sendTestEvent(ctx.caller, ctx.params.id),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/webhooks/:id/recover',
      summary: 'Re-queue every failed delivery created in [since, until]',
      tag: 'webhooks',
      params: idParams('id'),
      body: recoverBody,
      response: recoverResultSchema,
      handler: async (ctx) => webhooks.recoverDeliveries(ctx.caller, ctx.params.id, ctx.body.since, ctx.body.until),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/webhooks/:id/rotate-secret',
      summary: 'A new secret, shown once; the old one also signs during the grace window',
      tag: 'webhooks',
      params: idParams('id'),
      body: rotateSecretBody,
      response: webhookWithSecretSchema,
      handler: async (ctx) => ofOrganization(await webhooks.rotateSecret(ctx.caller, ctx.params.id, ctx.body.grace_seconds)),
    }),
  ];
}
