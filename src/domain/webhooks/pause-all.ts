import type { AuditLog } from '../audit/service.js';
import type { Actor } from '../identity/caller.js';
import type { Storage } from '../../storage/port.js';
import { writeWebhookChange } from './service.js';
import { WebhookStore } from './store.js';

/**
 * Pauses every live webhook (organization and platform ones) as `webhook pause` does, each in its own
 * transaction with its audit record, and answers how many it paused. A restored backup starts with its
 * webhooks paused, so that starting it to look around delivers nothing to real receivers; deliveries
 * are still recorded, held until `webhook resume`. Runs on a stopped store: nothing changes beside it.
 */
export async function pauseEveryWebhook(storage: Storage, audit: AuditLog, actor: Actor): Promise<number> {
  const store = new WebhookStore(storage);
  let paused = 0;
  let cursor: string | undefined;
  do {
    const page = await store.webhooks.list({ cursor, limit: 200 });
    for (const seen of page.items) {
      if (!seen.active || seen.deleted_at !== null) continue;
      if ((await writeWebhookChange(storage, store, audit, actor, seen.id, { active: false })) !== undefined) paused++;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return paused;
}
