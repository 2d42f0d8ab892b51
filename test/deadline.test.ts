import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import t from 'tap';
import { deadline } from '../src/deadline.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Resolves with the signal's reason when it aborts, or with 'never' after `boundMs`. */
function aborted(signal: AbortSignal, boundMs = 5_000): Promise<unknown> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('never'), boundMs);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve(signal.reason);
    });
  });
}

t.test('fires after its time with a TimeoutError, even with garbage collections in between', async (t) => {
  const { signal } = deadline(50);
  const heard = aborted(signal);
  for (let i = 0; i < 5; i++) gc();
  const reason = await heard;
  t.type(reason, DOMException);
  t.equal((reason as DOMException).name, 'TimeoutError');
});

t.test('a source signal aborts it with the source reason; clear() stops the timer and listeners', async (t) => {
  const source = new AbortController();
  const linked = deadline(10_000, source.signal);
  const heard = aborted(linked.signal);
  source.abort(new Error('shutting down'));
  t.equal(((await heard) as Error).message, 'shutting down');
  // Done with it, as a caller is: its 10 s timer would otherwise hold this process open that long.
  linked.clear();

  const already = deadline(10_000, AbortSignal.abort('before'));
  t.equal(already.signal.aborted, true, 'an aborted source aborts it at once');
  t.equal(already.signal.reason, 'before');
  already.clear();

  const other = new AbortController();
  const cleared = deadline(20, other.signal);
  cleared.clear();
  other.abort();
  await new Promise((r) => setTimeout(r, 60));
  t.equal(cleared.signal.aborted, false, 'neither the timer nor the source reaches it after clear()');
});
