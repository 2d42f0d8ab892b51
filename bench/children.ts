// The bench's child processes (servers it starts and measures) stop the same way, and never hold the
// run: SIGTERM, then SIGKILL if one is still there after EXIT_GRACE_MS.
import type { ChildProcess } from 'node:child_process';

const EXIT_GRACE_MS = 5000;

/**
 * Stops `child` unless it has already exited, and waits for `exited` (its `once(child, 'exit')`,
 * taken when it was spawned, so an exit before this call is not missed).
 */
export async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}
