import type { Services } from '../../areas.js';
import { createPortalSessionBody, portalSessionSchema } from '../../domain/portal/schemas.js';
import { defineRoute, idParams } from '../route.js';

/** Minting tenant portal links (docs/portal.md); the pages themselves are src/http/portal. */
export function portalSessionRoutes({ portal }: Services) {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/organizations/:id/portal-sessions',
      summary: 'A single-use link to the tenant portal of the organization (admin); shown once',
      tag: 'portal',
      params: idParams('id'),
      body: createPortalSessionBody,
      response: portalSessionSchema,
      status: 201,
      handler: async (ctx) => portal.createSession(ctx.caller, ctx.params.id, ctx.body),
    }),
  ];
}
