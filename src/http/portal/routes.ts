import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Services } from '../../areas.js';
import type { Config } from '../../config/schema.js';
import { PortalRefusal, type PortalSession } from '../../domain/portal/service.js';
import { AppError, describeError, isAppError } from '../../errors.js';
import { rawHeader } from '../headers.js';
import { defineRoute, Reply, type RouteDef } from '../route.js';
import { html, SafeHtml } from './html.js';
import { page, portalHeaders } from './layout.js';
import { field, formBody, type PortalContext, type PortalPageDef } from './page-def.js';
import { deliveryPages } from './pages/deliveries.js';
import { eventPages } from './pages/events.js';
import { runPages } from './pages/runs.js';
import { usagePages } from './pages/usage.js';
import { webhookPages } from './pages/webhooks.js';
import { checkSameOrigin, sessionCookie, sessionOf } from './session.js';

/** Form posts are small: the largest is a webhook's settings. */
const FORM_LIMIT_BYTES = 64 * 1024;
const anyParams = z.record(z.string(), z.string());

/** A link used or expired is gone (410); no session, or one that ended, is 401. */
const refusalStatus: Record<PortalRefusal['reason'], number> = { invalid: 401, used: 410, expired: 410, ended: 401 };

function errorPage(err: unknown, session: PortalSession | undefined): Reply {
  if (err instanceof PortalRefusal) {
    const body = html`<p role="alert">${err.message}</p>`;
    return Reply.html(refusalStatus[err.reason], page({ title: 'Not signed in' }, body).text, { ...portalHeaders });
  }
  const status = isAppError(err) ? err.httpStatus : 500;
  const error = describeError(err);
  const fields = (error.details as { fields?: Record<string, string> } | undefined)?.fields;
  const body = html`<p role="alert">${error.message}</p>
    ${
      fields === undefined
        ? ''
        : html`<ul>
            ${Object.entries(fields).map(([k, v]) => html`<li><code>${k}</code>: ${v}</li>`)}
          </ul>`
    }
    <p><a href="/portal/webhooks">Back to the portal</a></p>`;
  const title =
    status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : status >= 500 ? 'Something went wrong' : 'Not done';
  return Reply.html(status, page({ title, session }, body).text, { ...portalHeaders });
}

function staticFile(file: string, type: string): { body: Buffer; type: string } {
  return { body: readFileSync(file), type };
}

/** The portal's own static files (plain JS and CSS, no build step) and the chart library's. */
function staticFiles(): Map<string, { body: Buffer; type: string }> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // src/http/portal (under tsx) or dist/src/http/portal: the package root is where static/ is.
  let root = here;
  for (let i = 0; i < 6 && !existsSync(path.join(root, 'static', 'portal', 'portal.js')); i++) root = path.dirname(root);
  const dir = path.join(root, 'static', 'portal');
  const require = createRequire(import.meta.url);
  return new Map([
    ['portal.js', staticFile(path.join(dir, 'portal.js'), 'text/javascript; charset=utf-8')],
    ['portal.css', staticFile(path.join(dir, 'portal.css'), 'text/css; charset=utf-8')],
    ['uplot.js', staticFile(require.resolve('uplot/dist/uPlot.iife.min.js'), 'text/javascript; charset=utf-8')],
    ['uplot.css', staticFile(require.resolve('uplot/dist/uPlot.min.css'), 'text/css; charset=utf-8')],
  ]);
}

/**
 * The tenant portal (docs/portal.md): server-rendered pages under /portal that call the same domain
 * services as /v1, as the session's caller, so every permission check is the one /v1 makes.
 */
export function portalRoutes(services: Services, config: Config): RouteDef[] {
  const { portal } = services;
  const publicUrl = (): string => portal.publicUrl();
  const secureCookie = (): boolean => publicUrl().startsWith('https:') || config.env === 'production';
  let files: Map<string, { body: Buffer; type: string }> | undefined;

  const wrap = (def: PortalPageDef): RouteDef =>
    defineRoute({
      method: def.method,
      path: def.path,
      summary: def.summary,
      tag: 'portal',
      auth: 'none',
      document: false,
      params: anyParams,
      ...(def.method === 'POST' ? { body: formBody, bodyFormats: ['form'] as const, bodyLimitBytes: FORM_LIMIT_BYTES } : {}),
      handler: async (raw) => {
        const ctx = raw as PortalContext;
        let session: PortalSession | undefined;
        try {
          session = await sessionOf(portal, ctx.req);
          if (def.method === 'POST') {
            if (!checkSameOrigin(ctx.req, publicUrl()))
              throw new AppError('forbidden', 'this form was not sent from the portal (Origin)');
            const token = field(ctx.body, '_csrf') || rawHeader(ctx.req, 'x-csrf-token', 'first');
            if (!portal.checkCsrf(session, token === '' ? undefined : token))
              throw new AppError(
                'forbidden',
                'this form was not sent from the portal (CSRF token): reload the page and try again',
              );
          }
          const answer = await def.handler(ctx, session);
          return answer instanceof SafeHtml ? Reply.html(200, answer.text, { ...portalHeaders }) : answer;
        } catch (err) {
          if (ctx.res.headersSent) throw err;
          return errorPage(err, session);
        }
      },
    });

  const pages: PortalPageDef[] = [
    ...webhookPages(services),
    ...deliveryPages(services),
    ...usagePages(services),
    ...runPages(services),
    ...eventPages(),
  ];

  return [
    defineRoute({
      method: 'GET',
      path: '/portal/enter',
      summary: 'Exchange a portal link (once) for the session cookie',
      tag: 'portal',
      auth: 'none',
      document: false,
      handler: async (ctx) => {
        try {
          const token = new URL(ctx.req.url ?? '/', 'http://portal.invalid').searchParams.get('token') ?? '';
          const { cookie, session } = await portal.enter(token.slice(0, 200));
          // The token leaves the address bar and history: the answer is a redirect.
          return Reply.redirect('/portal/welcome', 303, {
            ...portalHeaders,
            'set-cookie': sessionCookie(cookie, session.record.expires_at, secureCookie()),
            // The token is in this request's URL: nothing of it goes anywhere in a Referer.
            'referrer-policy': 'no-referrer',
          });
        } catch (err) {
          return errorPage(err, undefined);
        }
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/portal/welcome',
      summary: 'After the exchange: a same-site step into the portal (a SameSite=Strict cookie is sent from here on)',
      tag: 'portal',
      auth: 'none',
      document: false,
      handler: () =>
        Reply.html(
          200,
          page(
            { title: 'Welcome' },
            html`<p>You are signed in. <a href="/portal/webhooks" id="continue" data-autofollow>Continue to the portal</a></p>`,
          ).text,
          { ...portalHeaders },
        ),
    }),
    defineRoute({
      method: 'GET',
      path: '/portal',
      summary: 'The portal: its first page',
      tag: 'portal',
      auth: 'none',
      document: false,
      handler: () => Reply.redirect('/portal/webhooks', 303),
    }),
    defineRoute({
      method: 'GET',
      path: '/portal/static/:file',
      summary: "The portal's script, stylesheet and chart library",
      tag: 'portal',
      auth: 'none',
      document: false,
      quiet: true,
      params: anyParams,
      handler: (ctx) => {
        files ??= staticFiles();
        const file = files.get(ctx.params.file ?? '');
        if (file === undefined) throw new AppError('not_found', 'no such file');
        ctx.res.writeHead(200, {
          'content-type': file.type,
          'content-length': file.body.length,
          'cache-control': 'public, max-age=300',
          'x-content-type-options': 'nosniff',
        });
        ctx.res.end(file.body);
        return Reply.handled();
      },
    }),
    ...pages.map(wrap),
  ];
}
