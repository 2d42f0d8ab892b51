import { apiKeyService } from './api-keys.js';
import { auditService } from './audit.js';
import type { AdminServiceModule } from './context.js';
import { daemonService } from './daemon.js';
import { eventService } from './events.js';
import { grantService } from './grants.js';
import { invitationService } from './invitations.js';
import { jobService } from './jobs.js';
import { memberService } from './members.js';
import { organizationService } from './organizations.js';
import { outboxService } from './outbox.js';
import { portalService } from './portal.js';
import { principalService } from './principals.js';
import { permissionService } from './permissions.js';
import { providerService } from './providers.js';
import { settingsService } from './settings.js';
import { teamService } from './teams.js';
import { webhookService } from './webhooks.js';
import { workflowService } from './workflows.js';

/** Every service of the admin API. A new area appends its module here (and its proto file). */
export const adminServices: readonly AdminServiceModule[] = [
  daemonService,
  organizationService,
  memberService,
  principalService,
  teamService,
  grantService,
  apiKeyService,
  invitationService,
  settingsService,
  outboxService,
  webhookService,
  eventService,
  providerService,
  auditService,
  permissionService,
  workflowService,
  jobService,
  portalService,
];
