import type { Services } from '../../../areas.js';
import type { Artifact } from '../../../domain/assets/types.js';
import { AppError } from '../../../errors.js';
import { writeEventStream } from '../../event-stream.js';
import { Reply } from '../../route.js';
import { html, type SafeHtml } from '../html.js';
import { badge, page, table, timestamp } from '../layout.js';
import { pathId, type PortalPageDef } from '../page-def.js';
import { sessionOf } from '../session.js';

const RECENT = 25;
const terminal = new Set(['completed', 'failed', 'cancelled']);

function artifactList(artifacts: readonly Artifact[]): SafeHtml {
  if (artifacts.length === 0) return html`<p>No artifacts.</p>`;
  return html`<ul>
    ${artifacts.map(
      (a) => html`<li><a href="${a.download_url}" download>${a.filename}</a> (${a.media_type}, ${a.bytes} bytes)</li>`,
    )}
  </ul>`;
}

/** Recent runs and jobs, a run's page with its live status (the run event stream), artifacts' links. */
export function runPages(services: Services): PortalPageDef[] {
  const { workflows, jobs, portal } = services;
  return [
    {
      method: 'GET',
      path: '/portal/runs',
      summary: 'Recent workflow runs and jobs',
      handler: async (_ctx, session) => {
        const organization_id = session.record.organization_id;
        const runs = await workflows.listRuns(session.caller, { organization_id, limit: RECENT }, { reverse: true });
        const recentJobs = await jobs.listJobs(session.caller, { organization_id, limit: RECENT }, { reverse: true });
        const body = html`${table({
          caption: 'Recent runs',
          head: ['Run', 'Workflow', 'Status', 'Created'],
          rows: runs.items.map((r) => [
            html`<a href="/portal/runs/${r.id}">${r.id.slice(0, 8)}</a>`,
            html`${r.workflow_name} v${r.version}`,
            badge(r.status),
            timestamp(r.created_at),
          ]),
          empty: 'No runs yet.',
        })}
        ${table({
          caption: 'Recent jobs',
          head: ['Job', 'Modality', 'Status', 'Created', 'Artifacts'],
          rows: recentJobs.items.map((j) => [
            html`<code>${j.id.slice(0, 8)}</code>`,
            j.modality,
            badge(j.status),
            timestamp(j.created_at),
            artifactList(j.artifacts),
          ]),
          empty: 'No jobs yet.',
        })}`;
        return page({ title: 'Runs and jobs', session, section: 'runs' }, body);
      },
    },
    {
      method: 'GET',
      path: '/portal/runs/:id',
      summary: 'One run: its status (live while it runs), nodes and artifacts',
      handler: async (ctx, session) => {
        const id = pathId(ctx, 'id');
        const run = await workflows.getRun(session.caller, id);
        const done = terminal.has(run.status);
        const output = done ? await workflows.runOutput(session.caller, id) : undefined;
        const body = html`<dl>
            <dt>Workflow</dt>
            <dd>${run.workflow_name} v${run.version}</dd>
            <dt>Status</dt>
            <dd>
              <span id="run-status" aria-live="polite" ${done ? '' : html` data-live="/portal/runs/${run.id}/events"`}
                >${badge(run.status)}</span
              >
            </dd>
            <dt>Created</dt>
            <dd>${timestamp(run.created_at)}</dd>
            ${
              run.error === null
                ? ''
                : html`<dt>Error</dt>
                    <dd class="error">${run.error.code}: ${run.error.message}</dd>`
            }
          </dl>
          <h2>Nodes</h2>
          <ul>
            ${Object.entries(run.node_states).map(([key, state]) => html`<li><code>${key}</code> ${badge(state.status)}</li>`)}
          </ul>
          <h2>Events</h2>
          <ol id="run-events" aria-live="polite"></ol>
          <h2>Artifacts</h2>
          ${output === undefined ? html`<p>Shown when the run has ended.</p>` : artifactList(output.artifacts)}`;
        return page({ title: `Run ${run.id.slice(0, 8)}`, session, section: 'runs' }, body);
      },
    },
    {
      method: 'GET',
      path: '/portal/runs/:id/events',
      summary: "A run's events as server-sent events, for its page",
      handler: async (ctx, session) => {
        const id = pathId(ctx, 'id');
        const gone = new AbortController();
        ctx.res.once('close', () => gone.abort());
        // The stream presents the cookie again as it goes: it ends once the session does.
        const events = await workflows.followRun(session.caller, id, undefined, gone.signal, async () => {
          const again = await sessionOf(portal, ctx.req).catch(() => undefined);
          if (again === undefined) throw new AppError('unauthenticated', 'the portal session has ended');
          return again.caller;
        });
        // The run's status after a run event (workflow.run.completed: completed), for the page to show.
        await writeEventStream(ctx.res, ctx.requestId, events, (event) => ({
          id: event.id,
          kind: event.kind,
          timestamp: event.timestamp,
          node_key: event.node_key,
          status: event.kind.startsWith('workflow.run.') ? event.kind.slice('workflow.run.'.length) : null,
        }));
        return Reply.handled();
      },
    },
  ];
}
