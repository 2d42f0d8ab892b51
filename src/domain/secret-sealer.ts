import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for a secret that must survive a restart without being stored in clear (the accept
 * token of a queued mail, a webhook's signing secret). The associated data binds a sealed value to
 * its record.
 */
export class SecretSealer {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new TypeError('sealing key must be 32 bytes');
  }

  seal(plain: string, associated: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(associated, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** undefined when the value was not sealed with this key for this record. */
  unseal(sealed: string, associated: string): string | undefined {
    try {
      const raw = Buffer.from(sealed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(associated, 'utf8'));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
