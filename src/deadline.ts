/**
 * An abort signal that fires after `ms` or when any of `signals` aborts, held by a real timer.
 *
 * Not `AbortSignal.any([AbortSignal.timeout(ms), ...])`: on Node 20 the timeout signal inside a
 * composite one can be garbage-collected before it fires (nodejs/node#57736), and the request it
 * should have cut off then waits forever. Under memory pressure a webhook attempt to a receiver that
 * never answered did exactly that. Call `clear()` once the work is done.
 */
export interface Deadline {
  readonly signal: AbortSignal;
  clear: () => void;
}

export function deadline(ms: number, ...signals: AbortSignal[]): Deadline {
  const controller = new AbortController();
  const abort = (reason: unknown): void => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const timer = setTimeout(() => abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError')), ms);
  const listeners = signals.map((s) => {
    const listener = (): void => abort(s.reason);
    if (s.aborted) abort(s.reason);
    else s.addEventListener('abort', listener, { once: true });
    return () => s.removeEventListener('abort', listener);
  });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      for (const remove of listeners) remove();
    },
  };
}
