import type { Collection } from '../storage/collection.js';
import type { Storage } from '../storage/port.js';

/** A record a daemon runs under a lease: workflow runs and jobs. */
export interface Leased {
  status: string;
  instance_id: string | null;
  lease_until: string | null;
}

/**
 * Moves the lease end of each record still running under `instanceId` to `until`, one transaction
 * each under its lock: renewal while the work goes on (a later end), or release at shutdown (now,
 * so another daemon takes the work at once). A record that ended or was taken over is left alone.
 */
export async function setLeaseEnds<T extends Leased>(
  storage: Storage,
  collection: Collection<T>,
  ids: Iterable<string>,
  lockOf: (id: string) => string,
  instanceId: string,
  until: string,
): Promise<void> {
  for (const id of [...ids])
    await storage.transaction({ locks: [lockOf(id)] }, async (tx) => {
      const record = await tx.get(collection, id);
      if (record?.status !== 'running' || record.instance_id !== instanceId) return;
      await tx.put(collection, { ...record, lease_until: until });
    });
}
