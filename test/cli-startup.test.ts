// What a CLI command loads to start: the module of the noun it names, and the proto file of the
// service it calls, not the rest (how long that takes is the bench's row (11), never a test's).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { binPath, cliCleanEnv, runOwned } from './helpers.js';

// A module hook reports every module the CLI resolves, and a preload every proto file that
// protobufjs reads to parse (it reads them as bytes; the client finds a service's file as text).
const hooks = `import { writeSync } from 'node:fs'; export async function resolve(s, c, next) { const r = await next(s, c); writeSync(2, 'LOAD ' + r.url + '\\n'); return r; }`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
const protoReads = `const fs = require('node:fs');
const read = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  if (rest.length === 0 && /switchyard.*\\.proto$/.test(String(file))) process.stderr.write('PROTO ' + require('node:path').basename(String(file)) + '\\n');
  return read.call(this, file, ...rest);
};
`;

async function loadedBy(t: Test, args: string[]): Promise<{ modules: string[]; protos: string[] }> {
  const preload = path.join(t.testdir(), 'proto-reads.cjs');
  writeFileSync(preload, protoReads);
  const { stderr } = await runOwned(
    t,
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--require', preload, binPath, ...args],
    { env: { ...process.env, ...cliCleanEnv } },
  );
  return {
    modules: [...stderr.matchAll(/^LOAD (.+)$/gm)].map((m) => m[1]),
    protos: [...stderr.matchAll(/^PROTO (.+)$/gm)].map((m) => m[1]),
  };
}

t.test("a command loads its own noun, its service's proto file, and nothing of ink when it prints JSON", async (t) => {
  // No daemon: the command fails once it has loaded what it needs to call.
  const { modules, protos } = await loadedBy(t, ['--socket', '/nonexistent/admin.sock', 'status', '--json']);
  const commands = modules.filter((url) => url.includes('/cli/commands/')).map((url) => path.basename(url));
  t.same(commands, ['status.js'], 'only the status command module');
  t.same(
    modules.filter((url) => /node_modules\/(ink|react|yoga-layout)\/|views-bundle\.js$/.test(url)),
    [],
    'no ink, React or yoga, nor the bundle of them',
  );
  t.same(protos, ['daemon.proto'], 'the proto file of DaemonService alone');
  t.same(
    modules.filter((url) => /node_modules\/(@grpc|protobufjs)\//.test(url)),
    [],
    'grpc-js, proto-loader and protobufjs from their one pre-built file, none from node_modules',
  );
  t.ok(
    modules.some((url) => url.endsWith('/dist/src/cli/grpc-lib.js')),
    'the bundle',
  );
});

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

t.test(
  'in a terminal, a command loads ink as one pre-built file, none of it from node_modules',
  { skip: hasScript ? false : 'util-linux script is not installed: this test needs a pseudo-terminal' },
  async (t) => {
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const node = [process.execPath, '--import', `data:text/javascript,${encodeURIComponent(register)}`, binPath];
    // No daemon: ink still loads, to draw the error line.
    const command = `stty cols 160 rows 40; ${[...node, '--socket', '/nonexistent/admin.sock', 'org', 'list'].map(quote).join(' ')}`;
    const { stdout } = await runOwned(t, 'script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, ...cliCleanEnv, TERM: 'xterm-256color' },
    });
    const modules = [...stdout.matchAll(/^LOAD (\S+)/gm)].map((m) => m[1]);
    t.ok(
      modules.some((url) => url.endsWith('/dist/src/cli/views-bundle.js')),
      'the bundle',
    );
    t.same(
      modules.filter((url) => /node_modules\/(ink|react|react-reconciler|scheduler|yoga-layout|es-toolkit)\//.test(url)),
      [],
      'nothing of ink, React, yoga or es-toolkit from node_modules',
    );
    t.match(stdout, /no daemon at \/nonexistent\/admin\.sock/, 'and it drew the error');
  },
);

t.test('help still lists every noun', async (t) => {
  const { modules } = await loadedBy(t, ['--help']);
  const commands = modules.filter((url) => url.includes('/cli/commands/')).map((url) => path.basename(url, '.js'));
  for (const noun of ['status', 'doctor', 'config-show', 'org', 'permissions', 'events', 'completion'])
    t.ok(commands.includes(noun), `${noun} is loaded for help`);
});
