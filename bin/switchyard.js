#!/usr/bin/env -S node --max-semi-space-size=2
// --max-semi-space-size=2 caps V8's young-generation semi-spaces at 2 MB: an idle daemon holds about
// 12 MB less (docs/benchmarks.md), for a few per cent of throughput. `env -S` splits the line (GNU
// coreutils 8.30+, FreeBSD, macOS).
// Thin launcher: the compiled CLI lives in dist/ (`npm run build`). `serve` enters through a program
// with only that command, so the daemon does not load the client commands' modules.
const { runCli } = await import(process.argv[2] === 'serve' ? '../dist/src/cli/serve-entry.js' : '../dist/src/cli/index.js');

await runCli(process.argv);
