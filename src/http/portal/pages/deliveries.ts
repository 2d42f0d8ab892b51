import type { Services } from '../../../areas.js';
import type { PortalSession } from '../../../domain/portal/service.js';
import { deliveryIdSchema, type DeliveryView } from '../../../domain/webhooks/schemas.js';
import { deliveryStatuses, type DeliveryStatus } from '../../../domain/webhooks/types.js';
import { AppError, validationFailed } from '../../../errors.js';
import { Reply } from '../../route.js';
import { html, type SafeHtml } from '../html.js';
import { badge, buttonForm, csrfField, page, timestamp } from '../layout.js';
import { field, pathId, queryOf, type PortalPageDef } from '../page-def.js';
import { canManage } from './webhooks.js';

/** Shown per page; older ones are a link away (the organization's list, one range read a page). */
const SHOWN = 50;

/** `2026-11-28T10:00` (a datetime-local field, read as UTC) or a full ISO time; '' is none. */
function timeOf(text: string | null, name: string): string | undefined {
  if (text === null || text.trim() === '') return undefined;
  const t = Date.parse(/Z$|[+-]\d\d:\d\d$/.test(text) ? text : `${text}Z`);
  if (Number.isNaN(t)) throw validationFailed({ [name]: 'must be a date and time' });
  return new Date(t).toISOString();
}

function attemptsTable(d: DeliveryView): SafeHtml {
  if (d.attempts.length === 0) return html`<p>No attempt yet.</p>`;
  return html`<table class="attempts">
    <caption>
      Attempts of ${d.id}
    </caption>
    <thead>
      <tr>
        <th scope="col">#</th>
        <th scope="col">At</th>
        <th scope="col">Status</th>
        <th scope="col">Duration</th>
        <th scope="col">Answer</th>
        <th scope="col">Error</th>
      </tr>
    </thead>
    <tbody>
      ${d.attempts.map(
        (a) =>
          html`<tr>
            <td>${a.attempt}</td>
            <td>${timestamp(a.at)}</td>
            <td>${a.status_code ?? '—'}</td>
            <td>${a.duration_ms} ms</td>
            <td><pre class="excerpt">${a.response ?? ''}</pre></td>
            <td>${a.error ?? ''}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function deliveryItem(d: DeliveryView, session: PortalSession, webhookName: string | undefined): SafeHtml {
  const replay =
    canManage(session) && d.status !== 'pending'
      ? buttonForm(session, `/portal/webhooks/${d.webhook_id}/deliveries/${d.id}/replay`, 'Replay')
      : '';
  return html`<li class="delivery" data-status="${d.status}">
    <details>
      <summary>
        ${badge(d.status)} <code>${d.event_kind}</code>${webhookName === undefined ? '' : html` to ${webhookName}`}
        ${timestamp(d.created_at)} · ${d.attempt}
        attempt${d.attempt === 1 ? '' : 's'}${d.error_message === null ? '' : html` · <span class="error">${d.error_message}</span>`}
      </summary>
      <p>
        Delivery <code>${d.id}</code>, event
        <code>${d.event_id}</code>${d.next_attempt_at === null ? '' : html`, next attempt ${timestamp(d.next_attempt_at)}`}
      </p>
      ${attemptsTable(d)} ${replay}
    </details>
  </li>`;
}

export function deliveryPages({ webhooks }: Services): PortalPageDef[] {
  return [
    {
      method: 'GET',
      path: '/portal/deliveries',
      summary: "The organization's deliveries, newest first, filtered by webhook, status and time",
      handler: async (ctx, session) => {
        const q = queryOf(ctx);
        const organizationId = session.record.organization_id;
        const hooks = (await webhooks.listWebhooks(session.caller, organizationId, { limit: 200 })).items;
        const chosen = q.get('webhook') ?? '';
        if (chosen !== '' && !/^[0-9a-f-]{36}$/i.test(chosen)) throw new AppError('not_found', 'webhook not found');
        const status = q.get('status') ?? '';
        if (status !== '' && !(deliveryStatuses as readonly string[]).includes(status))
          throw validationFailed({ status: `must be one of ${deliveryStatuses.join(', ')}` });
        const since = timeOf(q.get('since'), 'since');
        const until = timeOf(q.get('until'), 'until');
        const cursor = q.get('cursor') || undefined;
        const replayed = q.get('replayed') === '1' ? html`<p role="status" class="notice">Queued again: it is sent now.</p>` : '';
        const tested = q.get('tested');
        const testedNote =
          tested !== null && /^evt_[0-9A-Za-z]+$/.test(tested)
            ? html`<p role="status" class="notice">
                Test event <code>${tested}</code> sent: its delivery is listed below once queued (reload to see its outcome).
              </p>`
            : '';
        const recovered = q.get('recovered');
        const recoveredNote =
          recovered !== null && /^\d+$/.test(recovered)
            ? html`<p role="status" class="notice">${recovered} failed deliveries queued again.</p>`
            : '';
        const filters = html`<form method="get" action="/portal/deliveries" class="filters">
          <p>
            <label for="webhook">Webhook</label>
            <select id="webhook" name="webhook">
              <option value="">any</option>
              ${hooks.map(
                (h) => html`<option value="${h.id}" ${h.id === chosen ? html` selected` : ''}>${h.description ?? h.url}</option>`,
              )}
            </select>
          </p>
          <p>
            <label for="status">Status</label>
            <select id="status" name="status">
              <option value="">any</option>
              ${deliveryStatuses.map((s) => html`<option${s === status ? html` selected` : ''}>${s}</option>`)}
            </select>
          </p>
          <p>
            <label for="since">From (UTC)</label>
            <input id="since" name="since" type="datetime-local" value="${since?.slice(0, 16) ?? ''}" />
          </p>
          <p>
            <label for="until">Before (UTC)</label>
            <input id="until" name="until" type="datetime-local" value="${until?.slice(0, 16) ?? ''}" />
          </p>
          <p><button type="submit">Filter</button></p>
        </form>`;
        if (hooks.length === 0 && chosen === '')
          return page(
            { title: 'Deliveries', session, section: 'deliveries' },
            html`${filters}
              <p>No webhooks yet.</p>`,
          );
        // The organization's list: every webhook's (deleted ones' too) unless one is chosen, newest
        // first, a page at a time whatever the filters and however many deliveries there are.
        const found = await webhooks.listOrganizationDeliveries(
          session.caller,
          organizationId,
          {
            webhookId: chosen === '' ? undefined : chosen.toLowerCase(),
            status: status === '' ? undefined : (status as DeliveryStatus),
            since,
            until,
          },
          { limit: SHOWN, cursor },
        );
        const names = new Map(hooks.map((h) => [h.id, h.description ?? h.url]));
        const nameOf = (d: DeliveryView): string | undefined =>
          chosen === '' ? (names.get(d.webhook_id) ?? `webhook ${d.webhook_id}`) : undefined;
        const older = new URLSearchParams();
        for (const [key, value] of [
          ['webhook', chosen],
          ['status', status],
          ['since', q.get('since') ?? ''],
          ['until', q.get('until') ?? ''],
          ['cursor', found.nextCursor ?? ''],
        ])
          if (value !== '') older.set(key, value);
        const shown = found.items;
        const recover =
          canManage(session) && chosen !== ''
            ? html`<section aria-labelledby="recover-title">
                <h2 id="recover-title">Recover a window</h2>
                <form method="post" action="/portal/webhooks/${chosen}/recover" class="filters">
                  ${csrfField(session)}
                  <p>
                    <label for="recover-since">Failed since (UTC)</label>
                    <input id="recover-since" name="since" type="datetime-local" required />
                  </p>
                  <p>
                    <label for="recover-until">Until (UTC, empty: now)</label>
                    <input id="recover-until" name="until" type="datetime-local" />
                  </p>
                  <p><button type="submit">Send the failed ones again</button></p>
                </form>
              </section>`
            : '';
        const body = html`${replayed}${testedNote}${recoveredNote}${filters}
          <h2>Deliveries</h2>
          ${
            shown.length === 0
              ? html`<p>No delivery matches.</p>`
              : html`<ul class="deliveries">
                  ${shown.map((d) => deliveryItem(d, session, nameOf(d)))}
                </ul>`
          }
          ${found.nextCursor === null ? '' : html`<p><a href="/portal/deliveries?${older.toString()}" rel="next">Older deliveries</a></p>`}
          ${recover}`;
        return page({ title: 'Deliveries', session, section: 'deliveries' }, body);
      },
    },
    {
      method: 'POST',
      path: '/portal/webhooks/:id/deliveries/:delivery_id/replay',
      summary: 'Send one delivery again (manage_webhooks)',
      handler: async (ctx, session) => {
        const id = pathId(ctx, 'id');
        const deliveryId = ctx.params.delivery_id ?? '';
        if (!deliveryIdSchema.safeParse(deliveryId).success) throw new AppError('not_found', 'delivery not found');
        await webhooks.retryDelivery(session.caller, id, deliveryId);
        return Reply.redirect(`/portal/deliveries?webhook=${id}&replayed=1`, 303);
      },
    },
    {
      method: 'POST',
      path: '/portal/webhooks/:id/recover',
      summary: 'Send every failed delivery of a window again (manage_webhooks)',
      handler: async (ctx, session) => {
        const id = pathId(ctx, 'id');
        const since = timeOf(field(ctx.body, 'since'), 'since');
        if (since === undefined) throw validationFailed({ since: 'required' });
        const { recovered } = await webhooks.recoverDeliveries(
          session.caller,
          id,
          since,
          timeOf(field(ctx.body, 'until'), 'until'),
        );
        return Reply.redirect(`/portal/deliveries?webhook=${id}&recovered=${recovered}`, 303);
      },
    },
  ];
}
