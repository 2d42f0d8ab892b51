#!/usr/bin/env -S node --max-semi-space-size=2
// --max-semi-space-size=2 caps V8's young-generation semi-spaces at 2 MB: an idle daemon holds about
// 12 MB less (docs/benchmarks.md), for a few per cent of throughput. `env -S` splits the line (GNU
// coreutils 8.30+, FreeBSD, macOS).
// Thin launcher: the compiled CLI lives in dist/ (`npm run build`).
import { runCli } from '../dist/src/cli/index.js';

await runCli(process.argv);
