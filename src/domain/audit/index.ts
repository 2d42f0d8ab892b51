import type { Area, AreaBase } from '../area.js';
import type { IdentityServices } from '../identity/index.js';
import { AuditReadService } from './service.js';
import { createAuditStore } from './store.js';

export interface AuditServices {
  /** The read side, named apart from the base's writer (`audit`), which every area receives. */
  auditReads: AuditReadService;
}

/** The audit log's read side. Its writer (AuditLog) is part of the base: every area records into it. */
export function createAudit({ storage, permissions }: AreaBase & Pick<IdentityServices, 'permissions'>): Area<AuditServices> {
  const store = createAuditStore(storage);
  return {
    services: { auditReads: new AuditReadService(store, permissions) },
    count: async () => ({ audit_log: await store.count() }),
  };
}
