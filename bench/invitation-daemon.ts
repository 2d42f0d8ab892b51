// The invitation rows' daemon (bench/invitations.ts): a child process holding nothing but the
// daemon, so that its memory figures are the daemon's. The parent drives it over HTTP and asks it
// for its memory over IPC. BENCH_CPU_PROF=DIR starts it under `node --cpu-prof` (parent's side).
import { readFileSync } from 'node:fs';
import { loadConfig } from '../src/config/load.js';
import { startDaemon, type Daemon } from '../src/main.js';

export interface MemoryFigures {
  /** /proc/self/status, MiB (0 without /proc). */
  rssMb: number;
  anonMb: number;
  /** V8 heap used and total, MiB. */
  heapUsedMb: number;
  heapTotalMb: number;
}

export type ToDaemon = { type: 'start'; env: Record<string, string> } | { type: 'memory' } | { type: 'stop' };
export type FromDaemon =
  | { type: 'started'; url: string }
  | { type: 'memory'; figures: MemoryFigures }
  | { type: 'stopped' }
  | { type: 'error'; error: string };

function statusMb(status: string, field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? 0) / 1024;
}

export function memoryFigures(): MemoryFigures {
  let status = '';
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    // Not Linux: heap figures only.
  }
  const { heapUsed, heapTotal } = process.memoryUsage();
  return {
    rssMb: statusMb(status, 'VmRSS'),
    anonMb: statusMb(status, 'RssAnon'),
    heapUsedMb: heapUsed / 2 ** 20,
    heapTotalMb: heapTotal / 2 ** 20,
  };
}

function tell(message: FromDaemon): void {
  process.send?.(message);
}

let daemon: Daemon | undefined;

process.on('message', (message: ToDaemon) => {
  void (async () => {
    try {
      if (message.type === 'start') {
        daemon = await startDaemon(loadConfig({ env: message.env }));
        tell({ type: 'started', url: daemon.url });
      } else if (message.type === 'memory') {
        tell({ type: 'memory', figures: memoryFigures() });
      } else {
        await daemon?.stop();
        daemon = undefined;
        tell({ type: 'stopped' });
        process.disconnect();
      }
    } catch (err) {
      tell({ type: 'error', error: (err as Error)?.stack ?? String(err) });
    }
  })();
});
