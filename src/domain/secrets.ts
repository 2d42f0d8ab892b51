import { createHmac, randomBytes } from 'node:crypto';
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
