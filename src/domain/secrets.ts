import crypto, { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Storage } from '../storage/port.js';

/**
 * A 32-byte secret key: the configured one (hex), else one generated on first use and kept in the
 * meta table, so that it survives restarts. Concurrent openers get the same key.
 */
export async function openSecretKey(storage: Storage, name: string, configuredHex: string | undefined): Promise<Buffer> {
  if (configuredHex !== undefined) return Buffer.from(configuredHex, 'hex');
  return storage.transaction({ locks: [`meta:${name}`] }, async (tx) => {
    const stored = (await tx.readMeta(name)) as string | undefined;
    if (stored !== undefined) return Buffer.from(stored, 'hex');
    const key = randomBytes(32);
    tx.putMeta(name, key.toString('hex'));
    return key;
  });
}

/** A key for one purpose derived from another (never the source key itself). */
export function deriveKey(key: Buffer, purpose: string): Buffer {
  return createHmac('sha256', key).update(purpose).digest();
}

/** The invitation token key: HMAC key of accept tokens, and the source of the outbox's sealing key. */
export const INVITE_TOKEN_KEY = 'invite_token_key';

/** The SHA-256 a presented secret (an API key, a portal token) is stored and compared as. */
export function digestSecret(secret: string): Buffer {
  // crypto.hash: the one-shot digest (Node >= 20.12), without a Hash object per call.
  return crypto.hash('sha256', secret, 'buffer');
}

// Compared against when there is no stored digest, so a miss costs the same as a wrong secret.
const NO_DIGEST = Buffer.alloc(32);

/**
 * Whether `secret` digests to `storedHex` (digestSecret, as hex), compared in constant time; the same
 * work when nothing is stored (no such record), which never matches.
 */
export function digestMatches(secret: string, storedHex: string | null | undefined): boolean {
  const stored = storedHex == null ? NO_DIGEST : Buffer.from(storedHex, 'hex');
  return timingSafeEqual(digestSecret(secret), stored) && storedHex != null;
}
