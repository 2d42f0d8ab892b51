import { z } from 'zod';
import { operator } from '../../domain/identity/caller.js';
import { idSchema } from '../../domain/schemas.js';
import {
  createWebhookBody,
  deliveryIdSchema,
  recoverBody,
  rotateSecretBody,
  updateWebhookBody,
  type DeliveryView,
  type UpdateWebhookInput,
  type WebhookView,
  type WebhookWithSecret as WebhookWithSecretView,
} from '../../domain/webhooks/schemas.js';
import { resettableWebhookFields } from '../../domain/webhooks/types.js';
import { AppError, validationFailed } from '../../errors.js';
import type { UpdateWebhookRequest__Output } from '../generated/switchyard/admin/v1/UpdateWebhookRequest.js';
import type { Webhook } from '../generated/switchyard/admin/v1/Webhook.js';
import type { WebhookDelivery } from '../generated/switchyard/admin/v1/WebhookDelivery.js';
import type { WebhookServiceHandlers } from '../generated/switchyard/admin/v1/WebhookService.js';
import type { WebhookWithSecret } from '../generated/switchyard/admin/v1/WebhookWithSecret.js';
import { pageOptions, parseRequest, resolveOrganization, toMessage, unary } from '../handler.js';
import { fromValue, toValue } from '../json-value.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

const webhookRef = z.object({ id: idSchema });
const deliveryRef = z.object({ webhook_id: idSchema, delivery_id: deliveryIdSchema });

// proto3 cannot tell an empty list or map from an unset one, nor a null string from an unset one:
// what HTTP's PATCH writes as null or empty (back to the default) is the `reset` list.
const resetDefaults = { description: null, event_filter: [], resource_filter: {}, state: null } as const satisfies Record<
  (typeof resettableWebhookFields)[number],
  unknown
>;
const resetRequest = z.object({
  reset: z.array(z.enum(resettableWebhookFields, `each must be one of ${resettableWebhookFields.join(', ')}`)),
});

function webhookMessage(webhook: WebhookView): Webhook {
  return { ...toMessage(webhook), state: webhook.state === null ? undefined : toValue(webhook.state) };
}

function withSecretMessage({ secret, standard_secret, ...webhook }: WebhookWithSecretView): WebhookWithSecret {
  return { webhook: webhookMessage(webhook), secret, standard_secret };
}

/** Nested attempts too: their null fields are unset. */
function deliveryMessage(delivery: DeliveryView): WebhookDelivery {
  return { ...toMessage(delivery), attempts: delivery.attempts.map(toMessage) };
}

/** The HTTP PATCH body this request means: set fields with their values, reset ones with their defaults. */
function toPatch(req: UpdateWebhookRequest__Output): UpdateWebhookInput {
  const { reset } = parseRequest(resetRequest, { reset: req.reset });
  const patch: Record<string, unknown> = {
    ...(req.description === undefined ? {} : { description: req.description }),
    ...(req.event_filter.length === 0 ? {} : { event_filter: req.event_filter }),
    ...(Object.keys(req.resource_filter).length === 0 ? {} : { resource_filter: req.resource_filter }),
    ...(req.state === null ? {} : { state: fromValue(req.state) }),
    ...(req.max_retries === undefined ? {} : { max_retries: req.max_retries }),
    ...(req.active === undefined ? {} : { active: req.active }),
  };
  const both = reset.filter((field) => field in patch);
  if (both.length > 0)
    throw validationFailed(
      { reset: `${both.join(', ')} both set and reset` },
      `invalid reset: ${both.join(', ')} both set and reset`,
    );
  for (const field of reset) patch[field] = resetDefaults[field];
  return parseRequest(updateWebhookBody, patch);
}

function implement({ services, log }: ServiceContext): WebhookServiceHandlers {
  const { webhooks } = services;

  /**
   * The webhook id of a request. With `organization` set, the webhook must be that organization's:
   * another organization's is not_found, as over HTTP.
   */
  const webhookOf = async (req: { id: string; organization?: string }): Promise<string> => {
    const { id } = parseRequest(webhookRef, { id: req.id });
    if (req.organization === undefined) return id;
    const org = await resolveOrganization(services, req.organization);
    if ((await webhooks.getWebhook(operator, id)).organization_id !== org.id)
      throw new AppError('not_found', 'webhook not found');
    return id;
  };
  /** The organization a request names, or null for the platform webhooks (all_organizations); never both. */
  const organizationOrPlatform = async (req: { organization: string; all_organizations: boolean }): Promise<string | null> => {
    if (!req.all_organizations) return (await resolveOrganization(services, req.organization)).id;
    if (req.organization !== '')
      throw validationFailed(
        { organization: 'not with all_organizations' },
        'a platform webhook (all_organizations) belongs to no organization: leave organization unset',
      );
    return null;
  };
  const deliveryOf = async (req: { webhook_id: string; delivery_id: string; organization?: string }) => {
    const ref = parseRequest(deliveryRef, { webhook_id: req.webhook_id, delivery_id: req.delivery_id });
    await webhookOf({ id: ref.webhook_id, organization: req.organization });
    return ref;
  };

  return {
    CreateWebhook: unary(log, async (req, { actor }) => {
      const org = await organizationOrPlatform(req);
      const input = parseRequest(createWebhookBody, {
        url: req.url,
        ...(req.event_filter.length === 0 ? {} : { event_filter: req.event_filter }),
        resource_filter: req.resource_filter,
        ...(req.state === null ? {} : { state: fromValue(req.state) }),
        max_retries: req.max_retries,
        description: req.description,
        active: req.active,
        secret: req.secret,
      });
      return withSecretMessage(await webhooks.createWebhook(actor, org, input));
    }),
    ListWebhooks: unary(log, async (req, { actor }) => {
      const org = await organizationOrPlatform(req);
      const page =
        org === null
          ? await webhooks.listPlatformWebhooks(actor, pageOptions(req))
          : await webhooks.listWebhooks(actor, org, pageOptions(req));
      return { webhooks: page.items.map(webhookMessage), next_cursor: page.nextCursor ?? '' };
    }),
    GetWebhook: unary(log, async (req, { actor }) => webhookMessage(await webhooks.getWebhook(actor, await webhookOf(req)))),
    UpdateWebhook: unary(log, async (req, { actor }) => {
      const id = await webhookOf(req);
      return webhookMessage(await webhooks.updateWebhook(actor, id, toPatch(req)));
    }),
    PauseWebhook: unary(log, async (req, { actor }) =>
      webhookMessage(await webhooks.updateWebhook(actor, await webhookOf(req), { active: false })),
    ),
    ResumeWebhook: unary(log, async (req, { actor }) =>
      webhookMessage(await webhooks.updateWebhook(actor, await webhookOf(req), { active: true })),
    ),
    DeleteWebhook: unary(log, async (req, { actor }) =>
      webhookMessage(await webhooks.deleteWebhook(actor, await webhookOf(req))),
    ),
    ListDeliveries: unary(log, async (req, { actor }) => {
      // No webhook named: the organization's delivery list, every webhook's, newest first.
      if (req.webhook_id === '' && req.organization !== undefined) {
        const org = await resolveOrganization(services, req.organization);
        const page = await webhooks.listOrganizationDeliveries(actor, org.id, {}, pageOptions(req));
        return { deliveries: page.items.map(deliveryMessage), next_cursor: page.nextCursor ?? '' };
      }
      const id = await webhookOf({ id: req.webhook_id, organization: req.organization });
      const page = await webhooks.listDeliveries(actor, id, pageOptions(req));
      return { deliveries: page.items.map(deliveryMessage), next_cursor: page.nextCursor ?? '' };
    }),
    GetDelivery: unary(log, async (req, { actor }) => {
      const { webhook_id, delivery_id } = await deliveryOf(req);
      return deliveryMessage(await webhooks.getDelivery(actor, webhook_id, delivery_id));
    }),
    RetryDelivery: unary(log, async (req, { actor }) => {
      const { webhook_id, delivery_id } = await deliveryOf(req);
      return deliveryMessage(await webhooks.retryDelivery(actor, webhook_id, delivery_id));
    }),
    RecoverDeliveries: unary(log, async (req, { actor }) => {
      const id = await webhookOf({ id: req.webhook_id, organization: req.organization });
      const { since, until } = parseRequest(recoverBody, { since: req.since, until: req.until });
      return webhooks.recoverDeliveries(actor, id, since, until);
    }),
    RotateWebhookSecret: unary(log, async (req, { actor }) => {
      const id = await webhookOf(req);
      const { grace_seconds } = parseRequest(rotateSecretBody, { grace_seconds: req.grace_seconds });
      return withSecretMessage(await webhooks.rotateSecret(actor, id, grace_seconds));
    }),
    WebhookTest: unary(log, async (req, { actor }) => webhooks.sendTestEvent(actor, await webhookOf(req))),
  };
}

export const webhookService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/webhooks.proto',
  serviceName: 'switchyard.admin.v1.WebhookService',
  implement,
};
