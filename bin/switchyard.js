#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (`npm run build`).
import { runCli } from '../dist/src/cli/index.js';

await runCli(process.argv);
