import type { Area, AreaBase } from '../area.js';
import type { IdentityServices } from '../identity/index.js';
import { PortalService } from './service.js';
import { createPortalSweepLoop } from './sweep-loop.js';
import { createPortalStore } from './store.js';

export interface PortalServices {
  portal: PortalService;
}

/** The tenant portal's sessions (docs/portal.md); its pages are HTTP's (src/http/portal). */
export function createPortal({
  config,
  log,
  storage,
  audit,
  eventLog,
  publicUrl,
  permissions,
  organizations,
  memberships,
}: AreaBase & Pick<IdentityServices, 'permissions' | 'organizations' | 'memberships'>): Area<PortalServices> {
  const sessions = createPortalStore(storage);
  const portal = new PortalService(storage, sessions, permissions, organizations, memberships, audit, eventLog, publicUrl);
  return {
    services: { portal },
    loops: [
      createPortalSweepLoop(
        portal,
        { keepEndedMs: config.portalKeepEndedMs, sweepMs: config.portalSweepMs },
        log.child({ module: 'portal' }),
      ),
    ],
    count: async () => ({ portal_sessions: await sessions.count() }),
  };
}
