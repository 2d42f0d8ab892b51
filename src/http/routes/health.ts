import { z } from 'zod';
import { defineRoute, Reply } from '../route.js';

export interface Readiness {
  storage: () => boolean;
  /** Whether writes work: the last one succeeded, or a probe write does now. */
  storageWrites: () => Promise<boolean>;
  loops: () => boolean;
  accepting: () => boolean;
}

const ALIVE = Reply.raw(200, Object.freeze({ status: 'ok' }));

const readyStatuses = ['ready', 'not_ready'] as const;
type ReadyStatus = (typeof readyStatuses)[number];

/**
 * /healthz: the process answers. /readyz: storage open and its writes working, loops running, not
 * starting or stopping.
 */
export function healthRoutes(readiness: Readiness) {
  return [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      summary: 'Liveness: the process is up',
      tag: 'meta',
      auth: 'none',
      quiet: true,
      response: z.object({ status: z.literal('ok') }),
      handler: () => ALIVE,
    }),
    defineRoute({
      method: 'GET',
      path: '/readyz',
      summary: 'Readiness: storage open and writable, background loops running',
      tag: 'meta',
      auth: 'none',
      quiet: true,
      response: z.object({ status: z.enum(readyStatuses), checks: z.record(z.string(), z.boolean()) }),
      alsoAnswers: [503],
      handler: async () => {
        const storage = readiness.storage();
        const checks = {
          storage,
          storage_writes: storage && (await readiness.storageWrites()),
          loops: readiness.loops(),
          accepting: readiness.accepting(),
        };
        const ready = Object.values(checks).every(Boolean);
        const status: ReadyStatus = ready ? 'ready' : 'not_ready';
        return Reply.raw(ready ? 200 : 503, { status, checks });
      },
    }),
  ];
}
