import { createHmac, randomBytes } from 'node:crypto';
import { version } from '../../version.js';
import { isHexSecret, secretBytes } from './secret-format.js';

export { isWellFormedSecret } from './secret-format.js';

// Contracts 7 and 13 and spec 5.5: the secret formats and the two signatures every delivery carries.

/** A new secret: `whsec_` + base64 of 32 random bytes (one secret for both signature headers). */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The secret as Standard Webhooks libraries take it: `whsec_` + base64 of its 32 bytes. A new secret
 * already is; an older hex one is shown converted (its signatures do not change).
 */
export function standardSecret(secret: string): string {
  return isHexSecret(secret) ? `whsec_${secretBytes(secret).toString('base64')}` : secret;
}

/** `X-Service-Signature`: `sha256=` + hex HMAC-SHA256 of the raw body, keyed with the whole secret string. */
export function serviceSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/**
 * `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the secret's
 * 32 bytes; several secrets (a rotation's grace window) give several signatures, space-separated.
 */
export function standardSignature(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map(
      (secret) =>
        `v1,${createHmac('sha256', secretBytes(secret)).update(`${id}.${timestamp}.`, 'utf8').update(body, 'utf8').digest('base64')}`,
    )
    .join(' ');
}

export interface SignedDelivery {
  /** The current secret first; a rotated one still in its grace window after it. */
  secrets: string[];
  /** `dlv_...`: X-Service-Delivery and webhook-id. */
  deliveryId: string;
  eventKind: string;
  /** The raw body, exactly as sent. */
  body: string;
  /** Unix seconds. */
  timestamp: number;
  /** 1 for the first attempt; later attempts carry X-Service-Retry. */
  attempt: number;
}

/** Every header of a delivery attempt (contract 7): what the daemon sends, and `switchyard listen` too. */
export function deliveryHeaders({
  secrets,
  deliveryId,
  eventKind,
  body,
  timestamp,
  attempt,
}: SignedDelivery): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': `Switchyard-Webhooks/${version}`,
    'x-service-signature': serviceSignature(secrets[0], body),
    'x-service-event': eventKind,
    'x-service-delivery': deliveryId,
    ...(attempt > 1 ? { 'x-service-retry': String(attempt) } : {}),
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignature(secrets, deliveryId, timestamp, body),
  };
}
