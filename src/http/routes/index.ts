import type { Config } from '../../config/schema.js';
import type { Services } from '../../areas.js';
import type { RouteDef } from '../route.js';
import { anthropicCompatRoutes } from './anthropic-compat.js';
import { assetRoutes } from './assets.js';
import { auditRoutes } from './audit.js';
import { eventRoutes } from './events.js';
import { identityRoutes } from './identity.js';
import { invitationRoutes } from './invitations.js';
import { jobRoutes } from './jobs.js';
import { openaiCompatRoutes } from './openai-compat.js';
import { portalRoutes } from '../portal/routes.js';
import { portalSessionRoutes } from './portal-sessions.js';
import { providerRoutes } from './providers.js';
import { settingsRoutes } from './settings.js';
import { webhookRoutes } from './webhooks.js';
import { workflowRoutes } from './workflows.js';

/** An area's /v1 routes, built from the services (and the few settings a route reads itself). */
export type RouteModule = (services: Services, config: Config) => RouteDef[];

/** Every /v1 route module. A new area appends its module here (health routes are the daemon's own). */
export const routeModules: readonly RouteModule[] = [
  identityRoutes,
  settingsRoutes,
  invitationRoutes,
  eventRoutes,
  webhookRoutes,
  providerRoutes,
  assetRoutes,
  auditRoutes,
  workflowRoutes,
  jobRoutes,
  openaiCompatRoutes,
  anthropicCompatRoutes,
  portalSessionRoutes,
  portalRoutes,
];
