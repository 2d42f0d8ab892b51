import type { Collection } from '../storage/collection.js';
import { leasesTakenOver, type Storage } from '../storage/port.js';

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

/**
 * Takes over, for this daemon, the running records whose lease has ended (on exclusive storage, where
 * this daemon owns the data: every running one not held here), up to `limit`: one transaction each
 * under its lock, which re-reads the record and skips it if it ended or another daemon took it first.
 * `retake` changes a copy of the record (its new instance and lease, what the takeover resets) before
 * it is written; the records taken are answered.
 */
export async function takeOverEnded<T extends Leased>(
  storage: Storage,
  collection: Collection<T>,
  candidates: (upTo: string | undefined, limit: number) => Promise<string[]>,
  options: { held: { has(id: string): boolean; size: number }; limit: number; lockOf: (id: string) => string; now: number },
  retake: (record: T) => void,
): Promise<T[]> {
  const { held, limit, lockOf, now } = options;
  if (limit <= 0) return [];
  // Records held here are among the candidates (their leases run too): read past them.
  const ids = (await candidates(leasesTakenOver(storage, now), limit + held.size)).filter((id) => !held.has(id)).slice(0, limit);
  const taken: T[] = [];
  for (const id of ids) {
    const record = await storage.transaction({ locks: [lockOf(id)] }, async (tx) => {
      const current = await tx.get(collection, id);
      if (current?.status !== 'running') return undefined;
      const ended = current.lease_until === null || Date.parse(current.lease_until) <= now;
      if (!storage.exclusive && !ended) return undefined;
      const next = structuredClone(current);
      retake(next);
      await tx.put(collection, next);
      return next;
    });
    if (record !== undefined) taken.push(record);
  }
  return taken;
}
