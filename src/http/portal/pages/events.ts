import { listEventTypes } from '../../../domain/events/catalog.js';
import { html } from '../html.js';
import { page } from '../layout.js';
import type { PortalPageDef } from '../page-def.js';

/** The event catalog, as GET /v1/event-types serves it: each kind, what it means, an example payload. */
export function eventPages(): PortalPageDef[] {
  return [
    {
      method: 'GET',
      path: '/portal/events',
      summary: 'Every event kind a webhook can receive, with an example payload',
      handler: (_ctx, session) => {
        const types = listEventTypes();
        const body = html`<p>${types.length} kinds. A webhook with no event filter receives every one of them.</p>
          <nav aria-label="Event kinds">
            <ul class="kind-index">
              ${types.map((t) => html`<li><a href="#${t.kind}">${t.kind}</a></li>`)}
            </ul>
          </nav>
          ${types.map(
            (t) =>
              html`<section id="${t.kind}" class="event-type" aria-labelledby="${t.kind}-title">
                <h2 id="${t.kind}-title"><code>${t.kind}</code></h2>
                <p>${t.description}</p>
                <details>
                  <summary>Example payload</summary>
                  <pre class="payload">${JSON.stringify(t.example, null, 2)}</pre>
                </details>
              </section>`,
          )}`;
        return Promise.resolve(page({ title: 'Event catalog', session, section: 'events' }, body));
      },
    },
  ];
}
