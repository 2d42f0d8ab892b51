import t from 'tap';
import { request, startTestDaemon } from './helpers.js';

t.test('daemon serves health', async (t) => {
  const d = await startTestDaemon(t);
  const res = await request(d.url, 'GET', '/healthz');
  t.equal(res.status, 200);
  t.same(res.body, { status: 'ok' });
});
