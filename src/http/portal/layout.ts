import type { PortalSession } from '../../domain/portal/service.js';
import { html, type HtmlValue, type SafeHtml } from './html.js';

/**
 * Every portal answer's headers: a strict policy (scripts and styles only from the daemon's own
 * static files, nothing inline), never framed, never cached, no Referer to another site.
 */
export const portalHeaders: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on the portal's own
  // form posts, which the Origin check must refuse. Nothing leaves for another site either way.
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
});

export type PortalSection = 'webhooks' | 'deliveries' | 'usage' | 'runs' | 'events';

const sections: readonly [PortalSection, string][] = [
  ['webhooks', 'Webhooks'],
  ['deliveries', 'Deliveries'],
  ['usage', 'Usage'],
  ['runs', 'Runs and jobs'],
  ['events', 'Event catalog'],
];

export interface PageOptions {
  title: string;
  session?: PortalSession;
  section?: PortalSection;
  /** Scripts beyond portal.js (the chart library on the usage page). */
  scripts?: readonly string[];
  styles?: readonly string[];
}

/** A whole page: the navigation, the body, the one stylesheet and script (served from /portal/static). */
export function page(options: PageOptions, body: HtmlValue): SafeHtml {
  const { session } = options;
  const nav =
    session === undefined
      ? ''
      : html`<nav aria-label="Portal">
            <ul>
              ${sections.map(
                ([id, label]) =>
                  html`<li><a href="/portal/${id}" ${id === options.section ? html` aria-current="page"` : ''}>${label}</a></li>`,
              )}
            </ul>
          </nav>
          <p class="session">
            Organization <code>${session.record.organization_id}</code> ·
            ${session.record.capabilities.includes('manage_webhooks') ? 'can manage webhooks' : 'read only'} · until
            ${timestamp(session.record.expires_at)}
          </p>`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        ${session === undefined ? '' : html`<meta name="csrf-token" content="${session.csrfToken}" />`}
        <title>${options.title} · Switchyard portal</title>
        ${(options.styles ?? []).map((href) => html`<link rel="stylesheet" href="${href}" />`)}
        <link rel="stylesheet" href="/portal/static/portal.css" />
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <p class="brand">Switchyard portal</p>
          ${nav}
        </header>
        <main id="main" tabindex="-1">
          <h1>${options.title}</h1>
          ${body}
        </main>
        ${(options.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
        <script src="/portal/static/portal.js" defer></script>
      </body>
    </html> `;
}

/** The hidden field every state-changing form carries. */
export function csrfField(session: PortalSession): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${session.csrfToken}" />`;
}

/** A form of one button that POSTs to `action`. */
export function buttonForm(session: PortalSession, action: string, label: string, extra: HtmlValue = ''): SafeHtml {
  return html`<form method="post" action="${action}" class="inline">
    ${csrfField(session)}${extra}<button type="submit">${label}</button>
  </form>`;
}

/** A moment as the page shows it: the ISO time, marked up as one. */
export function timestamp(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${iso}</time>`;
}

/** A status badge; the text says it, the colour only repeats it. */
export function badge(status: string): SafeHtml {
  return html`<span class="badge badge-${status.replace(/[^a-z_]/g, '')}">${status}</span>`;
}

export interface TableOptions {
  caption: HtmlValue;
  /** The header cells' contents. */
  head: readonly HtmlValue[];
  /** Each row's cells' contents, as many as `head`. */
  rows: readonly (readonly HtmlValue[])[];
  /** The one row shown when there are none. */
  empty: string;
}

/** A captioned table with header cells, in its own box that scrolls sideways on a narrow screen. */
export function table({ caption, head, rows, empty }: TableOptions): SafeHtml {
  return html`<div class="scroll">
    <table>
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          ${head.map((cell) => html`<th scope="col">${cell}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${
          rows.length === 0
            ? html`<tr>
                <td colspan="${head.length}">${empty}</td>
              </tr>`
            : rows.map(
                (row) =>
                  html`<tr>
                    ${row.map((cell) => html`<td>${cell}</td>`)}
                  </tr>`,
              )
        }
      </tbody>
    </table>
  </div>`;
}
