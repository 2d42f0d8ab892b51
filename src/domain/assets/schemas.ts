import { z } from 'zod';
import { timestampSchema } from '../schemas.js';

// Request and record schemas of assets: HTTP input, types and OpenAPI from one place.

export { DEFAULT_LINK_SECONDS, MAX_LINK_SECONDS } from './types.js';

/**
 * `?expires_in=` (seconds) of a route that hands out download links; its range is checked by
 * AssetService.expiresIn, so an out-of-range value is 422 naming the field.
 */
export const expiresInQuery = z.object({
  expires_in: z.coerce.number().optional().describe('signed link lifetime in seconds: 1..86400, default 3600'),
});

/** The download route's query: checked by the service, so that anything but a genuine link is 403. */
export const downloadQuery = z.object({
  expires: z.string().max(32).optional().describe('unix seconds'),
  signature: z.string().max(128).optional().describe('hex HMAC-SHA256 of "{asset_id}.{expires}"'),
});

/** An asset id in a path: any short token (an id the daemon never made has no valid signature: 403). */
export const assetIdParams = z.object({ id: z.string().min(1).max(64) });

/** Spec 2.10: an artifact of a run's output. */
export const artifactSchema = z.object({
  asset_id: z.string(),
  filename: z.string(),
  content_type: z.string(),
  media_type: z.string(),
  bytes: z.number().int().nonnegative(),
  download_url: z.url(),
  download_url_expires_at: timestampSchema,
});
