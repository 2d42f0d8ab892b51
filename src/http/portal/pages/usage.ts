import type { Services } from '../../../areas.js';
import { html } from '../html.js';
import { page, table } from '../layout.js';
import type { PortalPageDef } from '../page-def.js';

const DAYS = 30;

/** Provider usage of the last 30 days: a chart (uPlot, drawn by portal.js) and the same figures as a table. */
export function usagePages({ providers }: Services): PortalPageDef[] {
  return [
    {
      method: 'GET',
      path: '/portal/usage',
      summary: 'Calls, tokens and cost per day by provider and model, last 30 days',
      handler: async (_ctx, session) => {
        const start = new Date(Date.now() - (DAYS - 1) * 86_400_000);
        start.setUTCHours(0, 0, 0, 0);
        const rows = await providers.usageOf(session.caller, session.record.organization_id, { since: start.toISOString() });
        const days: string[] = [];
        for (let i = 0; i < DAYS; i++) days.push(new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10));
        // One series per provider and model: its cost and calls each day (0 where none).
        const series = new Map<string, { cost: number[]; calls: number[] }>();
        for (const row of rows) {
          const label = `${row.provider}/${row.model}`;
          let s = series.get(label);
          if (s === undefined) series.set(label, (s = { cost: days.map(() => 0), calls: days.map(() => 0) }));
          const at = days.indexOf(row.day.slice(0, 10));
          if (at < 0) continue;
          s.cost[at] += row.cost_usd;
          s.calls[at] += row.calls;
        }
        const chart = {
          days: days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000),
          series: [...series].map(([label, s]) => ({ label, ...s })),
        };
        const total = rows.reduce(
          (t, r) => ({
            calls: t.calls + r.calls,
            tokens: t.tokens + r.input_tokens + r.output_tokens,
            cost: t.cost + r.cost_usd,
          }),
          { calls: 0, tokens: 0, cost: 0 },
        );
        const body = html`<p>
            ${total.calls} calls, ${total.tokens} tokens, $${total.cost.toFixed(4)} since ${days[0]} (UTC days).
          </p>
          <figure>
            <div
              id="usage-chart"
              class="chart"
              data-chart="${JSON.stringify(chart)}"
              role="img"
              aria-label="Cost per day by provider and model; the table below has the same figures"
            ></div>
            <figcaption>Cost (USD) per day by provider and model</figcaption>
          </figure>
          ${table({
            caption: 'Usage per day',
            head: ['Day', 'Provider', 'Model', 'Calls', 'Failures', 'Tokens in', 'Tokens out', 'Cost (USD)'],
            rows: rows.map((r) => [
              r.day.slice(0, 10),
              r.provider,
              r.model,
              r.calls,
              r.failures,
              r.input_tokens,
              r.output_tokens,
              r.cost_usd.toFixed(6),
            ]),
            empty: `No provider calls in the last ${DAYS} days.`,
          })}`;
        return page(
          {
            title: 'Usage',
            session,
            section: 'usage',
            scripts: ['/portal/static/uplot.js'],
            styles: ['/portal/static/uplot.css'],
          },
          body,
        );
      },
    },
  ];
}
