// Settings for features not built yet (signed asset URLs, workflow runs) are accepted and
// validated, but the daemon ignores them: `serve` says so in one warning naming each one that is set.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ConfigError, loadConfig, plannedSettingsSet } from '../src/config/load.js';
import { optionSpecs } from '../src/config/schema.js';
import { spawnDaemon } from './helpers.js';

const plannedVariables = Object.values(optionSpecs)
  .filter((spec) => spec.planned !== undefined)
  .map((spec) => spec.env);

// Every planned variable, emptied: an empty value counts as unset, so the runner's environment cannot leak in.
const noPlanned = Object.fromEntries(plannedVariables.map((name) => [name, '']));

t.test('the not-built features are the planned ones', async (t) => {
  for (const name of ['SERVICE_ASSET_SIGNING_KEY', 'SERVICE_ASSET_RETENTION_MS', 'SERVICE_ASSET_SWEEP_MS']) {
    t.ok(plannedVariables.includes(name), `${name} is planned`);
  }
  for (const name of [
    'SERVICE_PROVIDER_HEALTH_INTERVAL_MS',
    'OPENAI_API_KEY',
    'SERVICE_OLLAMA_ENABLED',
    'SERVICE_HTTP_ADDR',
    'SERVICE_SMTP_URL',
    'JWT_SECRET',
    'SERVICE_INVITE_TTL_MS',
    'SERVICE_DATABASE_URL',
    'SERVICE_STORAGE_SYNC',
  ]) {
    t.notOk(plannedVariables.includes(name), `${name} is built`);
  }
});

t.test('plannedSettingsSet names the planned settings that are set, from every layer', async (t) => {
  const dir = t.testdir();
  t.same(plannedSettingsSet({ env: {} }), [], 'none set: none named');
  t.same(
    plannedSettingsSet({ env: { SERVICE_HTTP_ADDR: '127.0.0.1:1', SERVICE_SMTP_URL: 'smtp://127.0.0.1:25' } }),
    [],
    'built settings are not named',
  );
  t.same(
    plannedSettingsSet({ env: { SERVICE_ASSET_SWEEP_MS: '5000', SERVICE_ASSET_SIGNING_KEY: 'ab'.repeat(32) } }),
    ['SERVICE_ASSET_SIGNING_KEY', 'SERVICE_ASSET_SWEEP_MS'],
    'in table order',
  );
  t.same(plannedSettingsSet({ env: { SERVICE_ASSET_SWEEP_MS: '' } }), [], 'an empty value is unset');
  t.same(
    plannedSettingsSet({ env: { SERVICE_ASSET_SWEEP_MS: '600000' } }),
    ['SERVICE_ASSET_SWEEP_MS'],
    'set to its default is still set',
  );
  const file = path.join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ SERVICE_ASSET_RETENTION_MS: '5000', SERVICE_LOG_LEVEL: 'warn' }));
  t.same(plannedSettingsSet({ env: {}, configFile: file }), ['SERVICE_ASSET_RETENTION_MS'], 'from the config file');
});

t.test('planned settings are still validated', async (t) => {
  const base = { SERVICE_DATA_DIR: t.testdir() };
  const refused = (env: Record<string, string>): string | undefined => {
    try {
      loadConfig({ env: { ...base, ...env } });
      return undefined;
    } catch (err) {
      return err instanceof ConfigError ? err.variable : String(err);
    }
  };
  t.equal(refused({ SERVICE_DATABASE_URL: 'mysql://db' }), 'SERVICE_DATABASE_URL');
  t.equal(refused({ SERVICE_STORAGE_SYNC: 'always' }), 'SERVICE_STORAGE_SYNC');
  t.equal(refused({ SERVICE_HTTP_MAX_CONNECTIONS: '0' }), 'SERVICE_HTTP_MAX_CONNECTIONS');
  t.equal(refused({ SERVICE_JWT_MAX_AGE_S: 'soon' }), 'SERVICE_JWT_MAX_AGE_S');
  t.equal(refused({ SERVICE_METRICS_ADDR: 'metrics' }), 'SERVICE_METRICS_ADDR');
  t.equal(refused({ SERVICE_GRPC_TLS_CERT: '/etc/cert.pem' }), 'SERVICE_GRPC_TLS_KEY', 'certificate and key go together');
  const c = loadConfig({ env: base });
  t.equal(c.storageSync, 'off');
  t.equal(c.httpMaxConnections, 10_000);
  t.equal(c.maxGrantsPerPrincipal, 1000);
  t.equal(c.orgCreatePerHour, 10);
  t.equal(c.invitePerRecipientPerHour, 5);
  t.equal(c.inviteAcceptConfirm, false);
  t.equal(c.devAllowRemote, false);
  t.equal(c.jwtMaxAgeS, undefined);
});

const warnings = (output: string) => output.split('\n').filter((line) => line.includes('"level":40'));

t.test('serve logs one warning naming the planned settings that are set', async (t) => {
  const daemon = await spawnDaemon(t, [], {
    ...noPlanned,
    SERVICE_ASSET_SWEEP_MS: '5000',
    SERVICE_ASSET_SIGNING_KEY: 'ab'.repeat(32),
  });
  const lines = warnings(daemon.output()).filter((line) => line.includes('not built yet'));
  t.equal(lines.length, 1, 'one warning');
  const entry = JSON.parse(lines[0] ?? '{}');
  t.equal(entry.msg, 'settings for features not built yet are ignored: SERVICE_ASSET_SIGNING_KEY, SERVICE_ASSET_SWEEP_MS');
  t.same(entry.settings, ['SERVICE_ASSET_SIGNING_KEY', 'SERVICE_ASSET_SWEEP_MS']);
  t.notMatch(daemon.output(), /abababab/, 'names only, never values');
});

t.test('serve logs no such warning when none is set', async (t) => {
  const daemon = await spawnDaemon(t, [], noPlanned);
  t.notMatch(daemon.output(), /not built yet/);
});
