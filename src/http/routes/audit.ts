import { z } from 'zod';
import { auditQuery, auditRecordSchema } from '../../domain/audit/schemas.js';
import type { Services } from '../../areas.js';
import { defineRoute, idParams, Reply } from '../route.js';

export function auditRoutes({ auditReads }: Services) {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/organizations/:id/audit-log',
      summary:
        'Who changed what in the organization, oldest first (admin); ?actor=<principal or key id | operator>&action=&since=&until= (since inclusive, until exclusive)',
      tag: 'audit',
      params: idParams('id'),
      query: auditQuery,
      response: z.array(auditRecordSchema),
      handler: async (ctx) => {
        const { limit, cursor, ...filters } = ctx.query;
        return Reply.page(await auditReads.listAuditLog(ctx.caller, ctx.params.id, filters, { limit, cursor }));
      },
    }),
  ];
}
