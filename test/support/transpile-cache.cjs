// ts-node's transpiler for the tests (tsconfig.tap.json), with a disk cache. Every test file is its
// own process, and ts-node transpiled src/ and the helpers anew in each of them: about 4 s of a
// file's start-up on a loaded machine. This emits with the function ts-node itself uses in
// transpile-only mode, with the options it hands over, so the output (source maps included, which
// coverage reads) is the same; only a file whose text and options were seen before is read back.
'use strict';
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const path = require('node:path');

/** Under tap's own working directory (gitignored); one entry per source file, replaced when it changes. */
const cacheDir = path.join(__dirname, '..', '..', '.tap', 'transpile-cache');

const sha256 = (...parts) => createHash('sha256').update(parts.join('\0')).digest('hex');

/** ts-node's transpiler interface: `create` is called once per module kind (ESM, CommonJS). */
exports.create = ({ service, nodeModuleEmitKind }) => {
  const ts = require(service.projectLocalResolveHelper('typescript', true));
  const tsNode = path.dirname(service.projectLocalResolveHelper('@isaacs/ts-node-temp-fork-for-pr-2009', true));
  const { createTsTranspileModule } = require(path.join(tsNode, 'ts-transpile-module.js'));
  const compilerOptions = service.config.options;
  const transpileModule = createTsTranspileModule(ts, { compilerOptions, reportDiagnostics: true });
  const packageJsonType = nodeModuleEmitKind === 'nodeesm' ? 'module' : 'commonjs';
  const salt = JSON.stringify([ts.version, tsNode, compilerOptions, packageJsonType]);
  return {
    transpile(input, { fileName }) {
      const file = path.join(cacheDir, `${sha256(salt, fileName)}.json`);
      const inputHash = sha256(input);
      try {
        const cached = JSON.parse(readFileSync(file, 'utf8'));
        if (cached.inputHash === inputHash) return { outputText: cached.outputText, sourceMapText: cached.sourceMapText };
      } catch {
        // not cached yet, or being replaced: transpile
      }
      const result = transpileModule(input, { fileName }, packageJsonType);
      if (result.diagnostics.length === 0) {
        // Written aside, then renamed: the other tap job may read the entry at any moment.
        mkdirSync(cacheDir, { recursive: true });
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, JSON.stringify({ inputHash, outputText: result.outputText, sourceMapText: result.sourceMapText }));
        renameSync(temp, file);
      }
      return result;
    },
  };
};
