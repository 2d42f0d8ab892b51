import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { ConfigError, loadConfig, type ConfigSources } from '../src/config/load.js';
import { optionSpecs } from '../src/config/schema.js';
import { repoRoot } from './helpers.js';

// t.testdir() recreates the directory on every call, so each test takes it once.
const dirs = new WeakMap<Test, string>();
function dirOf(t: Test): string {
  let dir = dirs.get(t);
  if (dir === undefined) {
    dir = t.testdir();
    dirs.set(t, dir);
  }
  return dir;
}

// A base environment that pins the data dir, so no test depends on the runner's cwd or process.env.
function baseEnv(t: Test): Record<string, string> {
  return { SERVICE_DATA_DIR: path.join(dirOf(t), 'data') };
}

let fileCount = 0;
function writeConfigFile(t: Test, content: string): string {
  const file = path.join(dirOf(t), `config-${++fileCount}.json`);
  writeFileSync(file, content);
  return file;
}

/** Asserts loadConfig refuses `sources` with a ConfigError whose message starts with `variable`. */
function assertRejects(t: Test, sources: ConfigSources, variable: string, reason?: RegExp): void {
  let caught: unknown;
  try {
    loadConfig(sources);
  } catch (err) {
    caught = err;
  }
  t.type(caught, ConfigError, `${variable}: a ConfigError`);
  const err = caught as ConfigError;
  t.equal(err.variable, variable, 'names the variable');
  t.ok(err.message.startsWith(`${variable}: `), `one line naming ${variable}: ${err.message}`);
  t.notOk(err.message.includes('\n'), 'one line');
  if (reason !== undefined) t.match(err.reason, reason);
}

t.test('defaults are the spec values', async (t) => {
  const c = loadConfig({ env: baseEnv(t) });
  t.equal(c.env, 'development');
  t.equal(c.httpAddr, '127.0.0.1:8400');
  t.equal(c.inviteTtlMs, 604_800_000);
  t.equal(c.inviteExpirySweepMs, 600_000);
  t.equal(c.outboxPollMs, 10_000);
  t.same(c.outboxRetryDelaysMs, [60_000, 300_000, 1_800_000]);
  t.equal(c.webhookTimeoutMs, 10_000);
  t.equal(c.webhookRetryBaseMs, 30_000);
  t.equal(c.providerHealthIntervalMs, 30_000);
  t.equal(c.assetRetentionMs, 259_200_000);
  t.equal(c.assetSweepMs, 600_000);
  t.equal(c.webhookAllowPrivate, false);
  t.equal(c.dev, false);
  t.equal(c.jwtSecret, undefined);
  t.equal(c.grpcAddr, undefined);
});

t.test('layers defaults < config file < environment < flags', async (t) => {
  const file = writeConfigFile(
    t,
    JSON.stringify({
      SERVICE_HTTP_ADDR: '127.0.0.1:1001',
      SERVICE_OUTBOX_POLL_MS: 111,
      SERVICE_INVITE_TTL_MS: '222',
      SERVICE_ASSET_SWEEP_MS: 333,
      SERVICE_OUTBOX_RETRY_DELAYS_MS: [5, 10, 20],
      SERVICE_WEBHOOK_ALLOW_PRIVATE: true,
    }),
  );
  const env = { ...baseEnv(t), SERVICE_HTTP_ADDR: '127.0.0.1:1002', SERVICE_OUTBOX_POLL_MS: '444', SERVICE_INVITE_TTL_MS: '' };
  const c = loadConfig({ configFile: file, env, flags: { httpAddr: '127.0.0.1:1003' } });
  t.equal(c.httpAddr, '127.0.0.1:1003', 'flag beats env and file');
  t.equal(c.outboxPollMs, 444, 'env beats file');
  t.equal(c.inviteTtlMs, 222, 'an empty env value counts as unset, so the file applies');
  t.equal(c.assetSweepMs, 333, 'file beats default (JSON number accepted)');
  t.same(c.outboxRetryDelaysMs, [5, 10, 20], 'file may give the retry list as a JSON array');
  t.equal(c.webhookAllowPrivate, true, 'file may give a flag as a JSON boolean');
  t.equal(c.webhookRetryBaseMs, 30_000, 'untouched options keep their default');

  const withoutFlag = loadConfig({ configFile: file, env });
  t.equal(withoutFlag.httpAddr, '127.0.0.1:1002', 'env beats file when no flag');
  const fileOnly = loadConfig({ configFile: file, env: baseEnv(t) });
  t.equal(fileOnly.httpAddr, '127.0.0.1:1001', 'file beats default');
});

t.test('flags: booleans and numbers are accepted as commander gives them', async (t) => {
  const c = loadConfig({ env: baseEnv(t), flags: { dev: true, outboxPollMs: 50 } });
  t.equal(c.dev, true);
  t.equal(c.outboxPollMs, 50);
  const off = loadConfig({ env: { ...baseEnv(t), SERVICE_DEV: '1' }, flags: { dev: false } });
  t.equal(off.dev, false, 'an explicit false flag beats the environment');
});

t.test('retry delay list parses a comma list with spaces', async (t) => {
  const c = loadConfig({ env: { ...baseEnv(t), SERVICE_OUTBOX_RETRY_DELAYS_MS: '10, 20,30' } });
  t.same(c.outboxRetryDelaysMs, [10, 20, 30]);
});

t.test('per-provider timeouts parse name=ms pairs, from the environment or a JSON object', async (t) => {
  const c = loadConfig({ env: { ...baseEnv(t), SERVICE_PROVIDER_TIMEOUTS_MS: 'ollama=300000, comfyui=600000' } });
  t.same(c.providerTimeoutsMs, { ollama: 300_000, comfyui: 600_000 });
  t.equal(loadConfig({ env: baseEnv(t) }).providerConnectTimeoutsMs, undefined, 'none by default: the global one applies');
  const file = writeConfigFile(t, JSON.stringify({ SERVICE_PROVIDER_CONNECT_TIMEOUTS_MS: { whisper: 2000 } }));
  t.same(loadConfig({ env: baseEnv(t), configFile: file }).providerConnectTimeoutsMs, { whisper: 2000 });
});

t.test("the provider breaker's window: 5 calls in 30 s, 50 % failed, unless set", async (t) => {
  const d = loadConfig({ env: baseEnv(t) });
  t.same([d.providerBreakerWindowMs, d.providerBreakerMinCalls, d.providerBreakerFailurePercent], [30_000, 5, 50]);
  const c = loadConfig({
    env: {
      ...baseEnv(t),
      SERVICE_PROVIDER_BREAKER_WINDOW_MS: '60000',
      SERVICE_PROVIDER_BREAKER_MIN_CALLS: '20',
      SERVICE_PROVIDER_BREAKER_FAILURE_PERCENT: '100',
    },
  });
  t.same([c.providerBreakerWindowMs, c.providerBreakerMinCalls, c.providerBreakerFailurePercent], [60_000, 20, 100]);
});

t.test('dataDir is resolved absolute and grpcSocket defaults to <dataDir>/admin.sock', async (t) => {
  const c = loadConfig({ env: { SERVICE_DATA_DIR: 'some/relative/dir' } });
  t.ok(path.isAbsolute(c.dataDir), 'absolute');
  t.equal(c.dataDir, path.resolve('some/relative/dir'));
  t.equal(c.grpcSocket, path.join(c.dataDir, 'admin.sock'));

  const given = loadConfig({ env: { ...baseEnv(t), SERVICE_GRPC_SOCKET: 'rel/admin.sock' } });
  t.equal(given.grpcSocket, path.resolve('rel/admin.sock'), 'an explicit socket is kept (made absolute)');
});

t.test('a TCP gRPC listener is accepted with an admin token', async (t) => {
  const c = loadConfig({
    env: { ...baseEnv(t), SERVICE_GRPC_ADDR: '127.0.0.1:9000', SERVICE_ADMIN_TOKEN: 'a-long-enough-admin-token' },
  });
  t.equal(c.grpcAddr, '127.0.0.1:9000');
});

const PUBLIC = 'https://switchyard.example.com';

t.test('production with an email transport starts', async (t) => {
  const c = loadConfig({
    env: { ...baseEnv(t), SERVICE_ENV: 'production', SERVICE_SMTP_URL: 'smtp://u:p@127.0.0.1:2525', SERVICE_PUBLIC_URL: PUBLIC },
  });
  t.equal(c.env, 'production');
  const k = loadConfig({
    env: { ...baseEnv(t), SERVICE_ENV: 'production', EMAIL_PROVIDER_API_KEY: 're_abc123', SERVICE_PUBLIC_URL: PUBLIC },
  });
  t.equal(k.emailProviderApiKey, 're_abc123');
});

t.test('rejections name the variable', async (t) => {
  const env = (extra: Record<string, string>) => ({ env: { ...baseEnv(t), ...extra } });

  t.test('bad millisecond values', async (t) => {
    assertRejects(t, env({ SERVICE_OUTBOX_POLL_MS: 'soon' }), 'SERVICE_OUTBOX_POLL_MS');
    assertRejects(t, env({ SERVICE_INVITE_TTL_MS: '0' }), 'SERVICE_INVITE_TTL_MS');
    assertRejects(t, env({ SERVICE_WEBHOOK_TIMEOUT_MS: '1.5' }), 'SERVICE_WEBHOOK_TIMEOUT_MS');
    assertRejects(t, env({ SERVICE_ASSET_SWEEP_MS: String(2 ** 31) }), 'SERVICE_ASSET_SWEEP_MS');
    assertRejects(t, env({ SERVICE_WEBHOOK_RETRY_BASE_MS: '-5' }), 'SERVICE_WEBHOOK_RETRY_BASE_MS');
  });

  t.test('bad host:port and port out of range', async (t) => {
    assertRejects(t, env({ SERVICE_HTTP_ADDR: 'localhost' }), 'SERVICE_HTTP_ADDR', /host:port/);
    assertRejects(t, env({ SERVICE_HTTP_ADDR: 'http://127.0.0.1:80' }), 'SERVICE_HTTP_ADDR');
    assertRejects(t, env({ SERVICE_HTTP_ADDR: '127.0.0.1:65536' }), 'SERVICE_HTTP_ADDR', /0-65535/);
    assertRejects(t, { env: baseEnv(t), flags: { httpAddr: '127.0.0.1:99999' } }, 'SERVICE_HTTP_ADDR', /0-65535/);
    assertRejects(t, env({ SERVICE_GRPC_ADDR: 'nope', SERVICE_ADMIN_TOKEN: 'a-long-enough-admin-token' }), 'SERVICE_GRPC_ADDR');
  });

  t.test('config file problems', async (t) => {
    const unknown = writeConfigFile(t, JSON.stringify({ SERVICE_HTTP_ADDR: '127.0.0.1:1', SERVICE_NO_SUCH_THING: 1 }));
    assertRejects(t, { env: baseEnv(t), configFile: unknown }, 'SERVICE_NO_SUCH_THING', /unknown setting/);

    const missing = path.join(dirOf(t), 'absent.json');
    assertRejects(t, { env: baseEnv(t), configFile: missing }, '--config', /not found/);

    assertRejects(t, { env: baseEnv(t), configFile: dirOf(t) }, '--config', /cannot be read \(EISDIR\)/);

    const notJson = writeConfigFile(t, '{ "SERVICE_HTTP_ADDR": ');
    assertRejects(t, { env: baseEnv(t), configFile: notJson }, '--config', /not valid JSON/);

    for (const content of ['[]', '"text"', 'null', '42']) {
      const notObject = writeConfigFile(t, content);
      assertRejects(t, { env: baseEnv(t), configFile: notObject }, '--config', /JSON object/);
    }

    const badValue = writeConfigFile(t, JSON.stringify({ SERVICE_OUTBOX_POLL_MS: 'often' }));
    assertRejects(t, { env: baseEnv(t), configFile: badValue }, 'SERVICE_OUTBOX_POLL_MS');
  });

  t.test('bad URLs', async (t) => {
    assertRejects(t, env({ SERVICE_PUBLIC_URL: 'not a url' }), 'SERVICE_PUBLIC_URL');
    assertRejects(t, env({ SERVICE_PUBLIC_URL: 'ftp://example.com' }), 'SERVICE_PUBLIC_URL');
    assertRejects(t, env({ EMAIL_PROVIDER_BASE_URL: 'example.com/api' }), 'EMAIL_PROVIDER_BASE_URL');
    assertRejects(t, env({ SERVICE_SMTP_URL: 'http://mail.example.com' }), 'SERVICE_SMTP_URL');
    assertRejects(t, env({ SERVICE_INVITE_REDIRECT_URL: '/relative' }), 'SERVICE_INVITE_REDIRECT_URL');
  });

  t.test('secrets with the wrong shape', async (t) => {
    assertRejects(t, env({ EMAIL_PROVIDER_API_KEY: 'sk_live_123' }), 'EMAIL_PROVIDER_API_KEY', /re_/);
    assertRejects(t, env({ JWT_SECRET: 'short' }), 'JWT_SECRET', /32/);
    assertRejects(t, env({ SERVICE_INVITE_TOKEN_KEY: 'abc' }), 'SERVICE_INVITE_TOKEN_KEY');
    assertRejects(t, env({ SERVICE_ADMIN_TOKEN: 'short' }), 'SERVICE_ADMIN_TOKEN');
  });

  t.test('cross-field rules', async (t) => {
    assertRejects(t, env({ SERVICE_GRPC_ADDR: '127.0.0.1:9000' }), 'SERVICE_GRPC_ADDR', /SERVICE_ADMIN_TOKEN/);
    assertRejects(t, env({ SERVICE_ENV: 'production' }), 'EMAIL_PROVIDER_API_KEY', /SERVICE_SMTP_URL/);
    assertRejects(
      t,
      env({ SERVICE_ENV: 'production', EMAIL_PROVIDER_API_KEY: 're_x' }),
      'SERVICE_PUBLIC_URL',
      /production needs SERVICE_PUBLIC_URL/,
    );
    assertRejects(
      t,
      env({ SERVICE_ENV: 'production', SERVICE_SMTP_URL: 'smtp://u:p@127.0.0.1:2525', SERVICE_DEV: '1' }),
      'SERVICE_DEV',
      /production/,
    );
    assertRejects(
      t,
      { env: { ...baseEnv(t), SERVICE_ENV: 'production', EMAIL_PROVIDER_API_KEY: 're_x' }, flags: { dev: true } },
      'SERVICE_DEV',
      /--dev/,
    );
    assertRejects(t, env({ SERVICE_ENV: 'staging' }), 'SERVICE_ENV');
  });

  t.test('bad retry delay lists', async (t) => {
    for (const bad of ['soon', '100,abc', '0,100', '100,-1', ',', '1.5']) {
      assertRejects(t, env({ SERVICE_OUTBOX_RETRY_DELAYS_MS: bad }), 'SERVICE_OUTBOX_RETRY_DELAYS_MS');
    }
    const fileList = writeConfigFile(t, JSON.stringify({ SERVICE_OUTBOX_RETRY_DELAYS_MS: [] }));
    assertRejects(t, { env: baseEnv(t), configFile: fileList }, 'SERVICE_OUTBOX_RETRY_DELAYS_MS');
  });

  t.test('bad per-provider timeouts', async (t) => {
    for (const bad of ['ollama', 'ollama=soon', 'ollama=0', 'Ollama=5', 'ollama=5=6']) {
      assertRejects(t, env({ SERVICE_PROVIDER_TIMEOUTS_MS: bad }), 'SERVICE_PROVIDER_TIMEOUTS_MS');
    }
  });

  t.test('bad provider breaker settings', async (t) => {
    for (const bad of ['0', '101', '50.5', 'half']) {
      assertRejects(t, env({ SERVICE_PROVIDER_BREAKER_FAILURE_PERCENT: bad }), 'SERVICE_PROVIDER_BREAKER_FAILURE_PERCENT');
    }
    assertRejects(t, env({ SERVICE_PROVIDER_BREAKER_MIN_CALLS: '0' }), 'SERVICE_PROVIDER_BREAKER_MIN_CALLS');
    assertRejects(t, env({ SERVICE_PROVIDER_BREAKER_WINDOW_MS: '-1' }), 'SERVICE_PROVIDER_BREAKER_WINDOW_MS');
  });

  t.test('bad flag values', async (t) => {
    assertRejects(t, env({ SERVICE_WEBHOOK_ALLOW_PRIVATE: 'yes please' }), 'SERVICE_WEBHOOK_ALLOW_PRIVATE');
    assertRejects(t, env({ SERVICE_LOG_LEVEL: 'loud' }), 'SERVICE_LOG_LEVEL');
  });
});

const contract = path.join(repoRoot, '..', 'shared', 'CONTRACT.md');
t.test(
  'every variable of CONTRACT.md section 2 is an option',
  { skip: existsSync(contract) ? false : `${contract} is absent` },
  async (t) => {
    const text = readFileSync(contract, 'utf8');
    const section = text.slice(text.indexOf('## 2.'), text.indexOf('## 3.'));
    t.ok(section.length > 0, 'found section 2');
    // The first cell of each table row; a cell may name several variables ("A, B").
    const names = new Set<string>();
    for (const line of section.split('\n')) {
      const cell = /^\|([^|]+)\|/.exec(line)?.[1];
      if (cell === undefined) continue;
      for (const m of cell.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)) names.add(m[0]);
    }
    t.ok(names.size >= 25, `parsed the variables of both tables (${names.size})`);
    t.ok(
      names.has('SERVICE_ASSET_SWEEP_MS') && names.has('SERVICE_ENV') && names.has('SERVICE_JWT_AUDIENCE'),
      'both tables and multi-name cells',
    );
    const known = new Set(Object.values(optionSpecs).map((s) => s.env));
    for (const name of names) t.ok(known.has(name), `${name} is in optionSpecs`);
  },
);

t.test('every option has a distinct variable and one line of docs', async (t) => {
  const envs = Object.values(optionSpecs).map((s) => s.env);
  t.equal(new Set(envs).size, envs.length, 'no two options share a variable');
  for (const [key, spec] of Object.entries(optionSpecs)) {
    t.ok(spec.doc.length > 0 && !spec.doc.includes('\n'), `${key} has a one-line doc`);
  }
});
