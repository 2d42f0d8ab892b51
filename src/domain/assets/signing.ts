import { createHmac, timingSafeEqual } from 'node:crypto';

// Contract 12: a download link carries `expires` (unix seconds) and `signature`, the hex HMAC-SHA256
// of "{asset_id}.{expires}" under the daemon's asset signing key.

const SIGNATURE = /^[0-9a-f]{64}$/;
const EXPIRES = /^[0-9]{1,12}$/;

/** The hex signature of a link to `assetId` that expires at `expires` (unix seconds). */
export function signAssetLink(key: Buffer, assetId: string, expires: number | string): string {
  return createHmac('sha256', key).update(`${assetId}.${expires}`, 'utf8').digest('hex');
}

/**
 * The link's expiry (unix seconds) when `signature` is the signature of `assetId` and `expires`, else
 * undefined: anything malformed is simply not a link the daemon made. Compared in constant time.
 */
export function verifyAssetLink(
  key: Buffer,
  assetId: string,
  expires: string | undefined,
  signature: string | undefined,
): number | undefined {
  if (expires === undefined || signature === undefined || !EXPIRES.test(expires) || !SIGNATURE.test(signature)) return undefined;
  // Over the text as the link carries it, as a client recomputing it would.
  const expected = Buffer.from(signAssetLink(key, assetId, expires), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex')) ? Number(expires) : undefined;
}
