import type { z } from 'zod';
import type { Services } from '../../../areas.js';
import type { PortalSession } from '../../../domain/portal/service.js';
import { eventKinds } from '../../../domain/events/types.js';
import { createWebhookBody, updateWebhookBody } from '../../../domain/webhooks/schemas.js';
import type { WebhookView, WebhookWithSecret } from '../../../domain/webhooks/schemas.js';
import { AppError, fieldReasons, validationFailed } from '../../../errors.js';
import { Reply } from '../../route.js';
import { html, type HtmlValue, type SafeHtml } from '../html.js';
import { badge, buttonForm, csrfField, page, table, timestamp } from '../layout.js';
import { field, fieldList, pathId, queryOf, type FormBody, type PortalPageDef } from '../page-def.js';

const MAX_WEBHOOKS_SHOWN = 200;

/** Validates a form as the /v1 body it stands for (the same schema, the same 422 reasons). */
export function parseForm<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationFailed(fieldReasons(result.error.issues));
}

export function canManage(session: PortalSession): boolean {
  return session.record.capabilities.includes('manage_webhooks');
}

function eventCheckboxes(selected: readonly string[]): SafeHtml {
  return html`<fieldset class="kinds">
    <legend>Events (none checked: every kind)</legend>
    ${eventKinds.map(
      (kind) =>
        html`<label
          ><input type="checkbox" name="event_filter" value="${kind}" ${selected.includes(kind) ? html` checked` : ''} />
          ${kind}</label
        >`,
    )}
  </fieldset>`;
}

function secretShown(hook: WebhookWithSecret, what: string): SafeHtml {
  return html`<section class="secret" aria-labelledby="secret-title">
    <h2 id="secret-title">${what}</h2>
    <p>Copy it now: it is shown this once and only its sealed form is kept.</p>
    <p><label for="secret">Signing secret</label> <input id="secret" readonly value="${hook.secret}" size="50" /></p>
    <p><a href="/portal/webhooks/${hook.id}">Back to the webhook</a></p>
  </section>`;
}

function filtersOf(body: FormBody | undefined): Record<string, unknown> {
  const description = field(body, 'description').trim();
  const kinds = fieldList(body, 'event_filter');
  const resource: Record<string, string> = {};
  for (const key of ['workflow_definition_id', 'workflow_run_id', 'job_id']) {
    const value = field(body, key).trim();
    if (value !== '') resource[key] = value;
  }
  return { description: description === '' ? null : description, event_filter: kinds, resource_filter: resource };
}

function webhookCells(hook: WebhookView): HtmlValue[] {
  return [
    html`<a href="/portal/webhooks/${hook.id}">${hook.url}</a
      >${hook.description === null ? '' : html`<br /><small>${hook.description}</small>`}`,
    badge(hook.active ? 'active' : 'paused'),
    hook.event_filter.length === 0 ? 'every kind' : hook.event_filter.join(', '),
    html`<a href="/portal/deliveries?webhook=${hook.id}">Deliveries</a>`,
  ];
}

export function webhookPages({ webhooks }: Services): PortalPageDef[] {
  const org = (s: PortalSession) => s.record.organization_id;
  return [
    {
      method: 'GET',
      path: '/portal/webhooks',
      summary: "The organization's webhooks",
      handler: async (_ctx, session) => {
        const list = await webhooks.listWebhooks(session.caller, org(session), { limit: MAX_WEBHOOKS_SHOWN });
        const create = canManage(session)
          ? html`<section aria-labelledby="new-title">
              <h2 id="new-title">New webhook</h2>
              <form method="post" action="/portal/webhooks" class="stack">
                ${csrfField(session)}
                <p>
                  <label for="url">URL</label>
                  <input id="url" name="url" type="url" required maxlength="2048" placeholder="https://example.com/hooks" />
                </p>
                <p><label for="description">Description</label> <input id="description" name="description" maxlength="500" /></p>
                ${eventCheckboxes([])}
                <p><button type="submit">Create webhook</button></p>
              </form>
            </section>`
          : '';
        const body = html`${table({
          caption: `Webhooks (${list.items.length})`,
          head: ['URL', 'State', 'Events', html`<span class="visually-hidden">Links</span>`],
          rows: list.items.map(webhookCells),
          empty: 'No webhooks yet.',
        })}
        ${create}`;
        return page({ title: 'Webhooks', session, section: 'webhooks' }, body);
      },
    },
    {
      method: 'POST',
      path: '/portal/webhooks',
      summary: 'Create a webhook (manage_webhooks)',
      handler: async (ctx, session) => {
        const { description, ...filters } = filtersOf(ctx.body);
        const input = parseForm(createWebhookBody, {
          url: field(ctx.body, 'url').trim(),
          ...filters,
          ...(description === null ? {} : { description }),
        });
        const hook = await webhooks.createWebhook(session.caller, org(session), input);
        return page({ title: 'Webhook created', session, section: 'webhooks' }, secretShown(hook, 'The new webhook’s secret'));
      },
    },
    {
      method: 'GET',
      path: '/portal/webhooks/:id',
      summary: 'One webhook: its settings, pause and resume, secret rotation',
      handler: async (ctx, session) => {
        const hook = await webhooks.getWebhook(session.caller, pathId(ctx, 'id'));
        const manage = canManage(session);
        const saved = queryOf(ctx).get('saved') === '1' ? html`<p role="status" class="notice">Saved.</p>` : '';
        const rf = hook.resource_filter as Record<string, string | undefined>;
        const settings = manage
          ? html`<form method="post" action="/portal/webhooks/${hook.id}" class="stack">
                ${csrfField(session)}
                <p>
                  <label for="description">Description</label>
                  <input id="description" name="description" maxlength="500" value="${hook.description ?? ''}" />
                </p>
                ${eventCheckboxes(hook.event_filter)}
                <fieldset>
                  <legend>Only events of (optional)</legend>
                  <p>
                    <label for="workflow_definition_id">Workflow definition id</label>
                    <input
                      id="workflow_definition_id"
                      name="workflow_definition_id"
                      maxlength="200"
                      value="${rf.workflow_definition_id ?? ''}"
                    />
                  </p>
                  <p>
                    <label for="workflow_run_id">Workflow run id</label>
                    <input id="workflow_run_id" name="workflow_run_id" maxlength="200" value="${rf.workflow_run_id ?? ''}" />
                  </p>
                  <p>
                    <label for="job_id">Job id</label>
                    <input id="job_id" name="job_id" maxlength="200" value="${rf.job_id ?? ''}" />
                  </p>
                </fieldset>
                <p><button type="submit">Save</button></p>
              </form>
              <div class="actions">
                ${hook.active ? buttonForm(session, `/portal/webhooks/${hook.id}/pause`, 'Pause') : buttonForm(session, `/portal/webhooks/${hook.id}/resume`, 'Resume')}
                ${buttonForm(session, `/portal/webhooks/${hook.id}/rotate`, 'Rotate secret')}
                ${hook.active ? buttonForm(session, `/portal/webhooks/${hook.id}/test`, 'Send a test event') : ''}
              </div>`
          : html`<p>Events: ${hook.event_filter.length === 0 ? 'every kind' : hook.event_filter.join(', ')}</p>`;
        const body = html`${saved}
          <dl>
            <dt>URL</dt>
            <dd><code>${hook.url}</code></dd>
            <dt>State</dt>
            <dd id="webhook-state">${badge(hook.active ? 'active' : 'paused')}</dd>
            <dt>Description</dt>
            <dd>${hook.description ?? '—'}</dd>
            <dt>Created</dt>
            <dd>${timestamp(hook.created_at)}</dd>
          </dl>
          <p><a href="/portal/deliveries?webhook=${hook.id}">Deliveries of this webhook</a></p>
          ${settings}`;
        return page({ title: 'Webhook', session, section: 'webhooks' }, body);
      },
    },
    {
      method: 'POST',
      path: '/portal/webhooks/:id',
      summary: "Change a webhook's description and filters (manage_webhooks)",
      handler: async (ctx, session) => {
        const id = pathId(ctx, 'id');
        await webhooks.updateWebhook(session.caller, id, parseForm(updateWebhookBody, filtersOf(ctx.body)));
        return Reply.redirect(`/portal/webhooks/${id}?saved=1`, 303);
      },
    },
    ...(['pause', 'resume'] as const).map((verb): PortalPageDef => ({
      method: 'POST',
      path: `/portal/webhooks/:id/${verb}`,
      summary: `${verb === 'pause' ? 'Pause' : 'Resume'} a webhook (manage_webhooks)`,
      handler: async (ctx, session) => {
        const id = pathId(ctx, 'id');
        await webhooks.updateWebhook(session.caller, id, { active: verb === 'resume' });
        return Reply.redirect(`/portal/webhooks/${id}?saved=1`, 303);
      },
    })),
    {
      method: 'POST',
      path: '/portal/webhooks/:id/test',
      summary: 'Send a signed test event to the webhook (manage_webhooks); its delivery is shown',
      handler: async (ctx, session) => {
        const sent = await webhooks.sendTestEvent(session.caller, pathId(ctx, 'id'));
        return Reply.redirect(`/portal/deliveries?webhook=${sent.webhook_id}&tested=${sent.event_id}`, 303);
      },
    },
    {
      method: 'POST',
      path: '/portal/webhooks/:id/rotate',
      summary: "Rotate a webhook's secret (manage_webhooks); the new one is shown once",
      handler: async (ctx, session) => {
        const hook = await webhooks.rotateSecret(session.caller, pathId(ctx, 'id'));
        if (hook.secret === '') throw new AppError('internal', 'no secret');
        return page({ title: 'Secret rotated', session, section: 'webhooks' }, secretShown(hook, 'The new secret'));
      },
    },
  ];
}
