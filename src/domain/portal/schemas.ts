import { z } from 'zod';
import { portalCapabilities } from './types.js';

/** A portal session lasts 1 hour unless asked otherwise, and at most 24 hours (at least 1 second). */
export const portalTtlSeconds = { default: 3600, min: 1, max: 86_400 } as const;

export const createPortalSessionBody = z
  .object({
    ttl_seconds: z
      .number()
      .int('must be a whole number of seconds')
      .min(portalTtlSeconds.min, `must be at least ${portalTtlSeconds.min}`)
      .max(portalTtlSeconds.max, `must be at most ${portalTtlSeconds.max} (24 hours)`)
      .optional(),
    capabilities: z
      .array(z.enum(portalCapabilities, `each must be one of ${portalCapabilities.join(', ')}`))
      .max(portalCapabilities.length * 2, 'too many capabilities')
      .optional(),
  })
  .strict();
export type CreatePortalSessionInput = z.infer<typeof createPortalSessionBody>;

export const portalSessionSchema = z.object({
  id: z.string(),
  organization_id: z.string(),
  url: z.string(),
  expires_at: z.string(),
  capabilities: z.array(z.enum(portalCapabilities)),
});
