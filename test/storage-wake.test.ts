// Wake-ups both engines share (src/storage/wake-topics.ts): a topic's listeners run on each wake, a
// family wake reaches every topic of the family, a listener that throws is logged and the others
// still run, and a listener that subscribes again as it runs is not called twice by one wake.
import t from 'tap';
import { createLogger } from '../src/log.js';
import { WakeTopics } from '../src/storage/wake-topics.js';

function topics(): { wake: WakeTopics; logged: Record<string, unknown>[] } {
  const logged: Record<string, unknown>[] = [];
  const log = createLogger('error', { write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>) });
  return { wake: new WakeTopics(log), logged };
}

t.test('a topic wakes its own listeners, until they stop', async (t) => {
  const { wake } = topics();
  const calls: string[] = [];
  const stopA = wake.on('run:a', () => calls.push('a1'));
  wake.on('run:a', () => calls.push('a2'));
  wake.on('run:b', () => calls.push('b'));
  wake.wake(['run:a']);
  t.same(calls, ['a1', 'a2']);
  t.equal(wake.count('run:a'), 2);
  stopA();
  stopA();
  t.equal(wake.count('run:a'), 1, 'stopping twice stops one listener');
  wake.wake(['run:a', 'run:b', 'nobody']);
  t.same(calls, ['a1', 'a2', 'a2', 'b'], 'a stopped listener is not called; a topic nobody waits for is nothing');
});

t.test('family:* wakes every topic of the family, and nothing else', async (t) => {
  const { wake } = topics();
  const calls: string[] = [];
  wake.on('run:a', () => calls.push('a'));
  wake.on('run:b', () => calls.push('b'));
  wake.on('runner', () => calls.push('runner'));
  wake.on('jobs', () => calls.push('jobs'));
  wake.wake(['run:*']);
  t.same(calls.sort(), ['a', 'b']);
});

t.test('a listener that throws is logged, and the others run', async (t) => {
  const { wake, logged } = topics();
  const calls: string[] = [];
  wake.on('jobs', () => {
    throw new Error('boom');
  });
  wake.on('jobs', () => calls.push('second'));
  wake.wake(['jobs']);
  t.same(calls, ['second']);
  t.match(logged, [{ msg: 'wake listener failed', topic: 'jobs', err: { message: 'boom' } }]);
});

t.test('a listener that subscribes again as it runs is called once a wake', async (t) => {
  const { wake } = topics();
  let calls = 0;
  const listen = (): void => {
    const stop = wake.on('jobs', () => {
      calls++;
      stop();
      listen();
    });
  };
  listen();
  wake.wake(['jobs']);
  t.equal(calls, 1);
  wake.wake(['jobs']);
  t.equal(calls, 2, 'and its new subscription hears the next one');
});
