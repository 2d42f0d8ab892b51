import { z } from 'zod';
import type { Config } from '../../config/schema.js';
import {
  acceptResultSchema,
  createInvitationBody,
  invitationSchema,
  invitationStatusSchema,
} from '../../domain/invitations/schemas.js';
import { acceptFailures, type AcceptFailure, type AcceptResult } from '../../domain/invitations/types.js';
import { isAppError } from '../../errors.js';
import type { Services } from '../../areas.js';
import type { Caller } from '../../domain/identity/caller.js';
import { acceptPageHeaders, renderAcceptPage } from '../accept-page.js';
import { defineRoute, idParams, pageQuery, Reply, uuidParam } from '../route.js';

/** `{url}?status=...`, keeping any query the configured URL already has. */
export function acceptRedirect(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

function isAcceptFailure(code: string): code is AcceptFailure {
  return (acceptFailures as readonly string[]).includes(code);
}

/** The link's token when given exactly once; missing or repeated reads as none (invalid_token). */
function singleToken(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

const tokenField = z.union([z.string(), z.array(z.string())]).optional();

export function invitationRoutes(
  { invitations }: Services,
  { inviteRedirectUrl: redirectUrl, inviteAcceptConfirm: confirm }: Pick<Config, 'inviteRedirectUrl' | 'inviteAcceptConfirm'>,
) {
  /** The acceptance and its answer: JSON, or a 303 to SERVICE_INVITE_REDIRECT_URL (contract 6). */
  const accept = async (
    caller: Caller | null,
    id: string,
    token: string | undefined,
    requestId: string,
  ): Promise<AcceptResult | Reply<never>> => {
    try {
      const result = await invitations.acceptInvitation(caller, id, token, { source: 'http', requestId });
      if (redirectUrl === undefined) return result;
      return Reply.redirect(
        acceptRedirect(redirectUrl, {
          status: 'accepted',
          org_id: result.organization_id,
          invitation_id: result.invitation_id,
        }),
      );
    } catch (err) {
      if (redirectUrl !== undefined && isAppError(err) && isAcceptFailure(err.code)) {
        return Reply.redirect(acceptRedirect(redirectUrl, { status: 'error', reason: err.code }));
      }
      throw err;
    }
  };

  return [
    defineRoute({
      method: 'POST',
      path: '/v1/invitations',
      summary: 'Invite an email address to an organization (admin or an ACL grant); mails the accept link',
      tag: 'invitations',
      body: createInvitationBody,
      response: invitationSchema,
      status: 201,
      handler: async (ctx) => invitations.createInvitation(ctx.caller, ctx.body),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/invitations',
      summary: "An organization's invitations, oldest first (admin)",
      tag: 'invitations',
      query: pageQuery.extend({ organization_id: uuidParam, status: invitationStatusSchema.optional() }),
      response: z.array(invitationSchema),
      handler: async (ctx) => {
        const { organization_id, ...page } = ctx.query;
        return Reply.page(await invitations.listInvitations(ctx.caller, organization_id, page));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/invitations/:id',
      summary: 'One invitation',
      tag: 'invitations',
      params: idParams('id'),
      response: invitationSchema,
      handler: async (ctx) => invitations.getInvitation(ctx.caller, ctx.params.id),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/invitations/:id/revoke',
      summary: 'Revoke a pending invitation (409 invalid_state otherwise)',
      tag: 'invitations',
      params: idParams('id'),
      response: invitationSchema,
      handler: async (ctx) => invitations.revokeInvitation(ctx.caller, ctx.params.id),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/invitations/:id/resend',
      summary: 'Mail a pending invitation again with a new token (the old link stops working)',
      tag: 'invitations',
      params: idParams('id'),
      response: invitationSchema,
      handler: async (ctx) => invitations.resendInvitation(ctx.caller, ctx.params.id),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/invitations/:id/accept',
      summary: confirm
        ? 'Accept link (public): an HTML page whose button POSTs the token to this path; it accepts nothing itself'
        : 'Accept by link (public). JSON, or a 303 to SERVICE_INVITE_REDIRECT_URL with status=accepted or status=error&reason=invalid_token|already_accepted|expired|revoked',
      tag: 'invitations',
      auth: 'public',
      // Any id and token reach the service: a malformed one is invalid_token, like a wrong one.
      params: z.object({ id: z.string() }),
      query: z.object({ token: tokenField }),
      response: acceptResultSchema,
      handler: async (ctx) => {
        // Link checkers and mail scanners send HEAD: it answers without looking at the token, and never accepts.
        if (ctx.req.method === 'HEAD') return Reply.head();
        const token = singleToken(ctx.query.token);
        if (confirm) return Reply.html(200, renderAcceptPage(token ?? ''), acceptPageHeaders);
        return accept(ctx.caller, ctx.params.id, token, ctx.requestId);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/invitations/:id/accept',
      summary:
        'Accept with the token in the body (the confirmation page posts it as a form field); answers as the GET accept link does by default',
      tag: 'invitations',
      auth: 'public',
      params: z.object({ id: z.string() }),
      body: z.object({ token: tokenField }),
      bodyFormats: ['json', 'form'],
      response: acceptResultSchema,
      handler: async (ctx) => accept(ctx.caller, ctx.params.id, singleToken(ctx.body.token), ctx.requestId),
    }),
  ];
}
