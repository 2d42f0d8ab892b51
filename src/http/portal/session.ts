import type { IncomingMessage } from 'node:http';
import { PortalRefusal, type PortalService, type PortalSession } from '../../domain/portal/service.js';
import { rawHeader } from '../headers.js';

/** The session cookie's name; scoped to /portal, so /v1 never sees it. */
export const COOKIE_NAME = 'sy_portal';

/** The cookie's value in the request, if any. */
export function cookieOf(req: IncomingMessage): string | undefined {
  const header = rawHeader(req, 'cookie', 'join');
  if (header === undefined) return undefined;
  for (const part of header.split(/;\s*/)) {
    if (part.startsWith(`${COOKIE_NAME}=`)) return part.slice(COOKIE_NAME.length + 1);
  }
  return undefined;
}

/** The Set-Cookie value for a fresh session; Secure unless the daemon is reached over plain HTTP in development. */
export function sessionCookie(value: string, expiresAt: string, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  return `${COOKIE_NAME}=${value}; Path=/portal; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The session a request's cookie names; refused (401 page) without one. */
export async function sessionOf(portal: PortalService, req: IncomingMessage): Promise<PortalSession> {
  const cookie = cookieOf(req);
  if (cookie === undefined)
    throw new PortalRefusal('invalid', 'You are not signed in to the portal: open the link you were given.');
  return portal.authenticate(cookie);
}

/**
 * A state-changing request must come from the portal's own pages: an Origin (when the browser sends
 * one) of the public URL, where links are minted and so the only place the cookie is ever set. The
 * request's Host is not consulted: it is whatever the client says.
 */
export function checkSameOrigin(req: IncomingMessage, publicUrl: string): boolean {
  const origin = rawHeader(req, 'origin', 'first');
  return origin === undefined || origin === new URL(publicUrl).origin;
}
