import { pipeline } from 'node:stream/promises';
import { assetIdParams, downloadQuery } from '../../domain/assets/schemas.js';
import type { Asset } from '../../domain/assets/types.js';
import type { Services } from '../../areas.js';
import { defineRoute, Reply } from '../route.js';

/** Content types a browser may show in place; anything else (SVG and HTML among them) is downloaded. */
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

/** RFC 6266: an ASCII fallback name and the exact one, percent-encoded as RFC 8187 says. */
function contentDisposition(asset: Asset): string {
  const inline = INLINE_TYPES.has(asset.content_type.split(';')[0]);
  const fallback = asset.filename.replace(/[^\x20-\x7e]|[%\\"]/g, '_');
  const exact = encodeURIComponent(asset.filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/** Spec 4.6 and contract 12: the signed download (the link is the credential; no auth header is read). */
export function assetRoutes({ assets }: Services) {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/assets/:id',
      summary: 'Download an asset through a signed link (no credentials: a bad or expired signature is 403, a removed asset 404)',
      tag: 'assets',
      auth: 'none',
      params: assetIdParams,
      query: downloadQuery,
      produces: ['application/octet-stream'],
      errors: [403],
      handler: async (ctx) => {
        const { asset, body, remainingSeconds } = await assets.openDownload(ctx.params.id, ctx.query);
        const { res } = ctx;
        res.writeHead(200, {
          'content-type': asset.content_type,
          'content-length': asset.size,
          'content-disposition': contentDisposition(asset),
          'cache-control': `private, max-age=${remainingSeconds}`,
          'x-content-type-options': 'nosniff',
        });
        try {
          await pipeline(body, res);
        } catch (err) {
          // The client went away, or the bytes were removed mid-download: the response is cut short.
          if (!res.destroyed) ctx.log.warn({ err, asset_id: asset.id }, 'asset download cut short');
          res.destroy();
        }
        return Reply.handled();
      },
    }),
  ];
}
