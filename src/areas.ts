// The composition root's one list: every area, in dependency order, and the typed services object
// they make. Transports (HTTP routes, gRPC services) import the Services type from here, never from
// main.ts, so the daemon's start-up code is not in their type graph.
import type { AreaBase } from './domain/area.js';
import { Composition } from './compose.js';
import { createAssets } from './domain/assets/index.js';
import { createAudit } from './domain/audit/index.js';
import { createEmail } from './domain/email/index.js';
import { createEvents } from './domain/events/index.js';
import { createIdentity } from './domain/identity/index.js';
import { createInvitations } from './domain/invitations/index.js';
import { createJobs } from './domain/jobs/index.js';
import { createPortal } from './domain/portal/index.js';
import { createProviders } from './domain/providers/index.js';
import { createSettings } from './domain/settings/index.js';
import { createWebhooks } from './domain/webhooks/index.js';
import { createWorkflows } from './domain/workflows/index.js';

/** The areas in dependency order. Adding an area is one `.add(create<Area>)` line here, plus its own files. */
export function composeAreas(base: AreaBase) {
  return Composition.of(base)
    .add(createIdentity)
    .add(createSettings)
    .add(createEmail)
    .add(createInvitations)
    .add(createEvents)
    .add(createWebhooks)
    .add(createProviders)
    .add(createAssets)
    .add(createWorkflows)
    .add(createJobs)
    .add(createAudit)
    .add(createPortal)
    .done();
}

/** Every area's services in one typed object: what HTTP routes, gRPC services and loops are handed. */
export type Services = Awaited<ReturnType<typeof composeAreas>>['services'];
