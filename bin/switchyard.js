#!/usr/bin/env -S node --max-semi-space-size=2
// --max-semi-space-size=2 caps V8's young-generation semi-spaces at 2 MB: an idle daemon holds about
// 12 MB less (docs/benchmarks.md), for a few per cent of throughput. `env -S` splits the line (GNU
// coreutils 8.30+, FreeBSD, macOS).
// Thin launcher: the compiled CLI lives in dist/ (`npm run build`). `serve` enters through a program
// with only that command, so the daemon does not load the client commands' modules.
import { fileURLToPath } from 'node:url';

const entry = import.meta.resolve(process.argv[2] === 'serve' ? '../dist/src/cli/serve-entry.js' : '../dist/src/cli/index.js');
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
