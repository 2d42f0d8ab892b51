// Spec 2.10, 4.6 and 8; contract 12: assets stored with their owner's change, listed by run or job,
// downloaded over real HTTP through signed links that expire (no credentials), and removed by the
// retention sweep. Runs on both engines (test/on-postgres-*.test.ts): on LevelDB the bytes are files
// of mode 0600, on PostgreSQL chunks that any daemon of the database serves. No public route creates
// assets yet (runs and jobs will), so tests store them through the daemon's own service.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import t from 'tap';
import { expiresInQuery } from '../src/domain/assets/index.js';
import { signAssetLink } from '../src/domain/assets/signing.js';
import type { Asset, AssetFile, AssetOwner } from '../src/domain/assets/types.js';
import { AppError } from '../src/errors.js';
import type { Daemon } from '../src/main.js';
import { startTestDaemon, startTestDaemonWithLogs, testPostgres, waitFor } from './helpers.js';

const owner = (extra: Partial<AssetOwner> = {}): AssetOwner => ({ organization_id: randomUUID(), ...extra });

/** Stores one file through the daemon's service, in a transaction of its own. */
async function save(d: Daemon, file: AssetFile, who: AssetOwner = owner()): Promise<Asset> {
  return d.storage.transaction({}, (tx) => d.services.assets.save(tx, who, file));
}

const png = (bytes = randomBytes(1000)): AssetFile => ({ filename: 'picture.png', content_type: 'image/png', bytes });

/** GET without credentials; the body as bytes, and as the error envelope when it is JSON. */
async function download(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: any;
  if ((res.headers.get('content-type') ?? '').startsWith('application/json')) json = JSON.parse(bytes.toString('utf8'));
  return { status: res.status, headers: res.headers, bytes, json };
}

/** The link with one query value replaced. */
function withParam(url: string, name: string, value: string | undefined): string {
  const u = new URL(url);
  if (value === undefined) u.searchParams.delete(name);
  else u.searchParams.set(name, value);
  return u.toString();
}

/** How many chunk rows PostgreSQL holds for an asset. */
async function chunkRows(d: Daemon, assetId: string): Promise<number> {
  const client = new pg.Client({ connectionString: d.config.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM asset_chunks WHERE data->>'asset_id' = $1", [
      assetId,
    ]);
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

/** Whether the asset's bytes are still stored (its file, or its chunks). */
async function bytesStored(d: Daemon, assetId: string): Promise<boolean> {
  if (d.storage.engine === 'leveldb') return existsSync(path.join(d.config.dataDir, 'assets', assetId));
  return (await chunkRows(d, assetId)) > 0;
}

t.test('a signed link downloads the bytes with their type, length and name, and needs no credentials', async (t) => {
  const d = await startTestDaemon(t);
  const file = png();
  const asset = await save(d, file, owner({ run_id: randomUUID(), node_key: 'draw' }));
  t.match(asset.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.equal(asset.size, 1000);
  t.equal(asset.sha256, createHash('sha256').update(file.bytes).digest('hex'));

  const before = Math.floor(Date.now() / 1000);
  const artifact = d.services.assets.artifact(asset, 120);
  t.same(Object.keys(artifact).sort(), [
    'asset_id',
    'bytes',
    'content_type',
    'download_url',
    'download_url_expires_at',
    'filename',
    'media_type',
  ]);
  t.equal(artifact.asset_id, asset.id);
  const url = new URL(artifact.download_url);
  t.equal(url.origin, d.url, 'on the public URL (the HTTP listener when SERVICE_PUBLIC_URL is unset)');
  t.equal(url.pathname, `/v1/assets/${asset.id}`);
  const expires = Number(url.searchParams.get('expires'));
  t.ok(expires >= before + 120 && expires <= before + 122, 'expires is unix seconds, 120 s ahead');
  t.equal(artifact.download_url_expires_at, new Date(expires * 1000).toISOString());
  t.match(url.searchParams.get('signature'), /^[0-9a-f]{64}$/);

  // A stale bearer header is not even read: the link is the credential.
  const res = await download(artifact.download_url, { authorization: 'Bearer svc_stale' });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'image/png');
  t.equal(res.headers.get('content-length'), '1000');
  t.ok(res.bytes.equals(file.bytes), 'the bytes stored');
  const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1]);
  t.ok(maxAge > 0 && maxAge <= 120, 'cached no longer than the link lives');
  t.equal(res.headers.get('content-disposition'), `inline; filename="picture.png"; filename*=UTF-8''picture.png`);
  t.equal(res.headers.get('x-content-type-options'), 'nosniff');
  t.ok(res.headers.get('x-request-id'), 'carries X-Request-Id like every answer');
});

t.test('bytes spanning several chunks, an empty file, and an unsafe name and type', async (t) => {
  const d = await startTestDaemon(t);
  const big = randomBytes(600 * 1024 + 7);
  const large = await save(d, { filename: 'big.bin', content_type: 'application/octet-stream', bytes: big });
  const got = await download(d.services.assets.artifact(large, 60).download_url);
  t.equal(got.status, 200);
  t.equal(got.headers.get('content-length'), String(big.length));
  t.ok(got.bytes.equals(big), 'every byte, in order');
  t.match(got.headers.get('content-disposition'), /^attachment; /, 'not an image: downloaded, not shown');

  const empty = await save(d, { filename: 'empty.txt', content_type: 'text/plain', bytes: Buffer.alloc(0) });
  const none = await download(d.services.assets.artifact(empty, 60).download_url);
  t.equal(none.status, 200);
  t.equal(none.headers.get('content-length'), '0');
  t.equal(none.bytes.length, 0);

  const odd = await save(d, { filename: '../ré"sumé\n.html', content_type: 'text/html\r\nx-evil: 1', bytes: Buffer.from('<p>') });
  t.equal(odd.filename, '.._ré_sumé_.html', 'no separators, quotes or control characters');
  t.equal(odd.content_type, 'application/octet-stream', 'a malformed type is stored as plain bytes');
  const served = await download(d.services.assets.artifact(odd, 60).download_url);
  t.equal(served.status, 200);
  t.equal(
    served.headers.get('content-disposition'),
    `attachment; filename=".._r__sum__.html"; filename*=UTF-8''.._r%C3%A9_sum%C3%A9_.html`,
  );
  t.notOk(served.headers.get('x-evil'));
});

t.test('anything but a genuine, unexpired link is 403 in the error shape; a valid link to no asset is 404', async (t) => {
  const key = 'k'.repeat(40);
  const d = await startTestDaemon(t, { SERVICE_ASSET_SIGNING_KEY: key });
  const asset = await save(d, png());
  const good = d.services.assets.artifact(asset, 60).download_url;
  t.equal((await download(good)).status, 200);

  const signature = new URL(good).searchParams.get('signature')!;
  t.equal(
    signature,
    signAssetLink(Buffer.from(key), asset.id, new URL(good).searchParams.get('expires')!),
    'the configured key signs',
  );
  const flipped = signature.slice(0, 10) + (signature[10] === 'a' ? 'b' : 'a') + signature.slice(11);
  const now = Math.floor(Date.now() / 1000);
  const signedAt = (expires: number) =>
    withParam(withParam(good, 'expires', String(expires)), 'signature', signAssetLink(Buffer.from(key), asset.id, expires));
  const refused: [string, string][] = [
    ['one character of the signature changed', withParam(good, 'signature', flipped)],
    ['the signature in upper case', withParam(good, 'signature', signature.toUpperCase())],
    ['no signature', withParam(good, 'signature', undefined)],
    ['no expiry', withParam(good, 'expires', undefined)],
    ['a later expiry under the old signature', withParam(good, 'expires', String(now + 3000))],
    ['an expiry that is not a number', withParam(good, 'expires', 'soon')],
    ['another asset under this signature', good.replace(asset.id, asset.id.slice(0, -1) + (asset.id.endsWith('0') ? '1' : '0'))],
    ['expired a second ago, correctly signed', signedAt(now - 1)],
    ['expiring further ahead than 24 hours, correctly signed', signedAt(now + 86_400 + 3600)],
  ];
  for (const [what, url] of refused) {
    const res = await download(url);
    t.equal(res.status, 403, what);
    t.match(res.json, { meta: { status: 403 }, error: { code: 'forbidden', message: String } }, `${what}: the error shape`);
  }
  t.match((await download(signedAt(now - 1))).json.error.message, /expired/);
  t.equal((await download(signedAt(now + 86_400))).status, 200, 'a 24-hour link is fine');

  const ghost: Asset = { ...asset, id: '00000000-0000-4000-8000-000000000000' };
  const missing = await download(d.services.assets.artifact(ghost, 60).download_url);
  t.equal(missing.status, 404, 'unknown asset, valid signature');
  t.match(missing.json, { meta: { status: 404 }, error: { code: 'not_found' } });
});

t.test('expiresIn: 3600 by default, 1 to 86400 seconds, else 422 naming expires_in', async (t) => {
  const d = await startTestDaemon(t);
  const { assets } = d.services;
  const fromQuery = (value?: string) =>
    assets.expiresIn(expiresInQuery.parse(value === undefined ? {} : { expires_in: value }).expires_in);
  t.equal(fromQuery(), 3600);
  t.equal(fromQuery('1'), 1);
  t.equal(fromQuery('86400'), 86_400);
  for (const bad of ['86401', '0', '-5', '1.5']) {
    let err: unknown;
    try {
      fromQuery(bad);
    } catch (e) {
      err = e;
    }
    t.ok(err instanceof AppError, `${bad} is refused`);
    t.equal((err as AppError).httpStatus, 422);
    t.match((err as AppError).details, { fields: { expires_in: /1 to 86400/ } }, `${bad}: the field is named`);
  }
  t.notOk(expiresInQuery.safeParse({ expires_in: 'soon' }).success, 'not a number: a bad query value (400)');
});

t.test('keepOutput stores images as assets; listFor lists a run or a job, oldest first', async (t) => {
  const d = await startTestDaemon(t);
  const { assets } = d.services;
  const run = owner({ run_id: randomUUID(), node_key: 'paint' });
  const first = randomBytes(50);
  const second = randomBytes(60);
  const kept = await d.storage.transaction({}, (tx) =>
    assets.keepOutput(
      tx,
      run,
      {
        images: [
          { content_type: 'image/png', base64: first.toString('base64') },
          { content_type: 'image/jpeg', base64: second.toString('base64') },
        ],
      },
      'paint',
    ),
  );
  t.same(
    kept.assets.map((a) => [a.filename, a.content_type, a.size, a.run_id, a.node_key, a.job_id]),
    [
      ['paint-1.png', 'image/png', 50, run.run_id, 'paint', null],
      ['paint-2.jpg', 'image/jpeg', 60, run.run_id, 'paint', null],
    ],
  );
  t.same(kept.output, { images: kept.assets.map((a) => ({ asset_id: a.id, content_type: a.content_type })) }, 'no base64 left');
  const text = await d.storage.transaction({}, (tx) => assets.keepOutput(tx, run, { text: 'hello' }, 'say'));
  t.same(text, { output: { text: 'hello' }, assets: [] }, 'other outputs unchanged');

  const job = owner({ job_id: randomUUID() });
  const jobAsset = await save(d, png(), job);
  t.same(
    (await assets.listFor({ run_id: run.run_id! })).map((a) => a.id),
    kept.assets.map((a) => a.id),
  );
  t.same(
    (await assets.listFor({ job_id: job.job_id! })).map((a) => a.id),
    [jobAsset.id],
  );
  t.same(await assets.listFor({ run_id: randomUUID() }), []);
  const second_ = await download(assets.artifact(kept.assets[1], 60).download_url);
  t.ok(second_.bytes.equals(second), 'the decoded bytes are served');
});

t.test('an asset commits with its caller’s change: a rolled-back transaction leaves no record', async (t) => {
  const d = await startTestDaemon(t);
  let made: Asset | undefined;
  const failed = d.storage.transaction({}, async (tx) => {
    made = await d.services.assets.save(tx, owner(), png());
    throw new Error('the caller changed its mind');
  });
  await t.rejects(failed, /changed its mind/);
  t.equal(await d.services.assets.store.assets.get(made!.id), undefined, 'no record');
  t.equal((await download(d.services.assets.artifact(made!, 60).download_url)).status, 404);
  if (d.storage.engine === 'postgres') t.equal(await chunkRows(d, made!.id), 0, 'no chunk either');
});

t.test('retention removes the record and the bytes; the link then answers 404', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_ASSET_RETENTION_MS: '300', SERVICE_ASSET_SWEEP_MS: '50' });
  const who = owner({ run_id: randomUUID() });
  const asset = await save(d, png(randomBytes(300 * 1024)), who);
  const link = d.services.assets.artifact(asset, 3600).download_url;
  // A rolled-back save leaves a file on LevelDB: the sweep removes it too.
  let orphan: Asset | undefined;
  await t.rejects(
    d.storage.transaction({}, async (tx) => {
      orphan = await d.services.assets.save(tx, owner(), png());
      throw new Error('rolled back');
    }),
  );
  await waitFor(async () => (await d.services.assets.store.assets.get(asset.id)) === undefined, {
    what: 'the sweep to remove the record',
  });
  await waitFor(async () => !(await bytesStored(d, asset.id)), { what: 'the bytes to be removed' });
  await waitFor(async () => !(await bytesStored(d, orphan!.id)), { what: 'the orphaned file to be removed' });
  const res = await download(link);
  t.equal(res.status, 404, 'a valid link to a swept asset');
  t.match(res.json, { error: { code: 'not_found' } });
  t.same(await d.services.assets.listFor({ run_id: who.run_id! }), []);
});

t.test('an asset past retention is 404 even before the sweep reaches it', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_ASSET_RETENTION_MS: '200', SERVICE_ASSET_SWEEP_MS: '3600000' });
  const asset = await save(d, png());
  const link = d.services.assets.artifact(asset, 60).download_url;
  await waitFor(() => Date.parse(asset.created_at) + 250 < Date.now(), { what: 'the retention period to pass' });
  t.equal((await download(link)).status, 404);
  t.ok(await d.services.assets.store.assets.get(asset.id), 'the record is still there for the sweep');
});

const levelOnly = { skip: testPostgres === undefined ? false : 'LevelDB only' };
const postgresOnly = { skip: testPostgres === undefined ? 'PostgreSQL only (test/on-postgres-*.test.ts runs it)' : false };

t.test('LevelDB: asset files are 0600 in a 0700 directory under the data dir', levelOnly, async (t) => {
  const d = await startTestDaemon(t);
  const asset = await save(d, png());
  const dir = path.join(d.config.dataDir, 'assets');
  t.equal(statSync(dir).mode & 0o777, 0o700);
  t.equal(statSync(path.join(dir, asset.id)).mode & 0o777, 0o600);
  t.same(readdirSync(dir), [asset.id]);
});

t.test('the signing key and link signatures are never logged', async (t) => {
  const key = 'secret-asset-key-'.repeat(3);
  const { daemon: d, logs } = await startTestDaemonWithLogs(t, { SERVICE_ASSET_SIGNING_KEY: key });
  const asset = await save(d, png());
  const link = d.services.assets.artifact(asset, 60).download_url;
  t.equal((await download(link)).status, 200);
  t.equal((await download(withParam(link, 'signature', '0'.repeat(64)))).status, 403);
  const signature = new URL(link).searchParams.get('signature')!;
  t.match(logs(), asset.id, 'the download is logged');
  t.notMatch(logs(), key);
  t.notMatch(logs(), signature);
});

t.test('PostgreSQL: bytes stored through one daemon are served by another', postgresOnly, async (t) => {
  const a = await startTestDaemon(t);
  const b = await startTestDaemon(t, { SERVICE_DATABASE_URL: a.config.databaseUrl! });
  const bytes = randomBytes(400 * 1024);
  const asset = await save(a, { filename: 'shared.bin', content_type: 'application/octet-stream', bytes });
  // Signed by A with the generated key both daemons read from the database; fetched from B.
  const link = new URL(a.services.assets.artifact(asset, 60).download_url);
  const res = await download(`${b.url}${link.pathname}${link.search}`);
  t.equal(res.status, 200);
  t.ok(res.bytes.equals(bytes));
});

t.test('metrics count assets stored and served', async (t) => {
  const d = await startTestDaemon(t, { SERVICE_METRICS_ADDR: '127.0.0.1:0' });
  const asset = await save(d, png());
  await save(d, png());
  t.equal((await download(d.services.assets.artifact(asset, 60).download_url)).status, 200);
  const text = await (await fetch(`http://${d.metricsAddress}/metrics`)).text();
  t.match(text, /^switchyard_assets_total\{event="stored"\} 2$/m);
  t.match(text, /^switchyard_assets_total\{event="served"\} 1$/m);
});
