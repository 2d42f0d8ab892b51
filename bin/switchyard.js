#!/usr/bin/env -S node --max-semi-space-size=2
// --max-semi-space-size=2 caps V8's young-generation semi-spaces at 2 MB: an idle daemon holds about
// 12 MB less (docs/benchmarks.md), for a few per cent of throughput. `env -S` splits the line (GNU
// coreutils 8.30+, FreeBSD, macOS).
// Thin launcher: the compiled CLI lives in dist/ (`npm run build`). `serve` enters through a program
// with only that command, so the daemon does not load the client commands' modules.
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

const serving = process.argv[2] === 'serve';
// The daemon's young generation stays at its first size (1 MB semi-spaces) while it starts, however
// node was started: start-up's allocations would otherwise grow it, and an idle daemon would keep
// that (the flag above caps it when the shebang runs, but `node bin/switchyard.js serve` or
// NODE_OPTIONS without the flag would let it grow to 16 MB). The cap is fixed when node starts; how
// far the space grows is read as it grows, so this holds it wherever the cap is. Once the daemon
// serves, the young generation may grow again (V8's default factor, 2) up to the cap: a loaded
// daemon collects less often (provider calls: 3,220 -> 3,510 req/s, docs/benchmarks.md).
if (serving) setFlagsFromString('--semi-space-growth-factor=1');
// Start-up code (module bodies, proto parsing, schema building) runs once: optimizing it is wasted work
// whose compiled code, and the compiler's memory on V8's worker threads, an idle daemon would keep
// (about 10 MB of 80, docs/benchmarks.md). The optimizing and baseline compilers come back on once the
// daemon serves, so the code that requests run is optimized as before.
const compilers = ['opt', 'sparkplug'];
if (serving) for (const flag of compilers) setFlagsFromString(`--no-${flag}`);

const entry = import.meta.resolve(serving ? '../dist/src/cli/serve-entry.js' : '../dist/src/cli/index.js');
let cli;
try {
  cli = await import(entry);
} catch (err) {
  // A clone that was never built: one line that says what to do, not a module-not-found stack.
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes(fileURLToPath(entry))) throw err;
  process.stderr.write('switchyard is not built yet: run npm run build first (npm start builds too)\n');
  process.exit(1);
}
await cli.runCli(process.argv);
// `serve` returns once the daemon listens (its signal handlers keep it running).
if (serving) {
  for (const flag of compilers) setFlagsFromString(`--${flag}`);
  setFlagsFromString('--semi-space-growth-factor=2');
}
