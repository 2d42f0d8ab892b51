// readUpTo (src/read-stream.ts), the one reader of request bodies and upstream answers: a stream to
// its end within the limit, the chunk that would pass it, and a stream that fails or stops early.
import { PassThrough, Readable } from 'node:stream';
import t from 'tap';
import { readUpTo } from '../src/read-stream.js';

const b = (s: string) => Buffer.from(s);

t.test('within the limit: every chunk, to the end', async (t) => {
  const read = await readUpTo(Readable.from([b('abc'), b('de')]), 5);
  t.same(Buffer.concat(read.chunks).toString(), 'abcde');
  t.equal(read.size, 5);
  t.equal(read.over, undefined, 'exactly the limit is within it');
});

t.test('past the limit: the chunks before it, and the one that would pass it', async (t) => {
  const read = await readUpTo(Readable.from([b('abc'), b('def'), b('ghi')]), 5);
  t.same(Buffer.concat(read.chunks).toString(), 'abc');
  t.equal(read.size, 3);
  t.same(read.over?.toString(), 'def');
});

t.test('a stream that fails, or closes before its end, rejects', async (t) => {
  const failing = new PassThrough();
  const failed = readUpTo(failing, 100);
  failing.write('partial');
  failing.destroy(new Error('socket hang up'));
  await t.rejects(failed, { message: 'socket hang up' });

  const closing = new PassThrough();
  const closed = readUpTo(closing, 100);
  closing.write('partial');
  closing.destroy();
  await t.rejects(closed, { code: 'ERR_STREAM_PREMATURE_CLOSE' });

  const gone = new PassThrough();
  gone.destroy();
  await t.rejects(readUpTo(gone, 100), { code: 'ERR_STREAM_PREMATURE_CLOSE' }, 'already destroyed');
});

t.test('a stream already read to its end answers what it had: nothing', async (t) => {
  const ended = Readable.from([b('x')]);
  ended.resume();
  await new Promise((r) => ended.once('end', r));
  t.same(await readUpTo(ended, 10), { chunks: [], size: 0 });
});
