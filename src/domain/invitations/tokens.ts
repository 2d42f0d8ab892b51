import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const TOKEN_BYTES = 32;
/** 32 bytes in base64url, unpadded. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Accept tokens (spec 2.3): 32 random bytes, base64url in the link, stored only as HMAC-SHA256
 * keyed by SERVICE_INVITE_TOKEN_KEY, or by a key generated once and kept in the meta table
 * (openSecretKey).
 */
export class InvitationTokens {
  constructor(private readonly key: Buffer) {}

  /** A fresh token: `raw` goes only into the mail link, `hash` into the record. */
  issue(): { raw: string; hash: string } {
    const raw = randomBytes(TOKEN_BYTES).toString('base64url');
    return { raw, hash: this.digest(raw).toString('hex') };
  }

  /** Constant-time: both sides are 32-byte digests, compared with timingSafeEqual. */
  matches(raw: string | undefined, storedHash: string): boolean {
    if (raw === undefined || !TOKEN_SHAPE.test(raw)) return false;
    const expected = Buffer.from(storedHash, 'hex');
    const actual = this.digest(raw);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  private digest(raw: string): Buffer {
    return createHmac('sha256', this.key).update(raw, 'utf8').digest();
  }
}
