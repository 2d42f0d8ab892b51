// Contract 13: the formats a webhook secret may have. No imports, so the CLI can check a `--secret`
// at parse time without loading the signing code.

/** The current format: `whsec_` + base64 of 32 bytes, which Standard Webhooks and Svix verifiers take as is. */
const BASE64_SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
/** The older format, still honoured when supplied and kept by webhooks made with it. */
const HEX_SECRET = /^whsec_[0-9a-f]{64}$/;

/** Whether the secret has the older `whsec_` + 64 hex format. */
export function isHexSecret(secret: string): boolean {
  return HEX_SECRET.test(secret);
}

/** The secret's 32 bytes, whichever format it has. */
export function secretBytes(secret: string): Buffer {
  const text = secret.slice('whsec_'.length);
  return isHexSecret(secret) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
}

/** Whether a supplied secret has one of the accepted formats (base64 of 32 bytes, or the older 64 hex). */
export function isWellFormedSecret(secret: string): boolean {
  return isHexSecret(secret) || (BASE64_SECRET.test(secret) && secretBytes(secret).length === 32);
}

/** What a 422 or a usage error says about a malformed secret. */
export const SECRET_FORMAT = 'whsec_ followed by the base64 of 32 bytes (or the older 64 lower-case hex characters)';
