import type { AuditLog } from '../audit/service.js';
import type { Actor } from '../identity/caller.js';
import type { Storage } from '../../storage/port.js';
import { nowIso } from '../../storage/keys.js';
import { webhookLock } from './service.js';
import { WebhookStore } from './store.js';
import type { Webhook } from './types.js';

/**
 * Pauses every live webhook (organization and platform ones), each in its own transaction with its
 * audit record, and answers how many it paused. A restored backup starts with its webhooks paused, so
 * that starting it to look around delivers nothing to real receivers; deliveries are still recorded,
 * held until `webhook resume`.
 */
export async function pauseEveryWebhook(storage: Storage, audit: AuditLog, actor: Actor): Promise<number> {
  const store = new WebhookStore(storage);
  let paused = 0;
  let cursor: string | undefined;
  do {
    const page = await store.webhooks.list({ cursor, limit: 200 });
    for (const seen of page.items) {
      if (!seen.active || seen.deleted_at !== null) continue;
      paused += await storage.transaction({ locks: [webhookLock(seen.id)] }, async (tx) => {
        const current = await store.webhooks.in(tx).get(seen.id);
        if (current === undefined || !current.active || current.deleted_at !== null) return 0;
        const next: Webhook = { ...current, active: false, updated_at: nowIso() };
        audit.recordChange(tx, actor, 'webhook.update', 'webhook', current, next);
        await tx.put(store.webhooks, next);
        return 1;
      });
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return paused;
}
