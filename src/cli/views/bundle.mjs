// The CLI's ink views, bundled with ink, React, react-reconciler and yoga into one ESM file,
// dist/src/cli/views-bundle.js, which output.ts loads for a terminal only (`npm run build` runs this
// after tsc). Loaded from node_modules, ink's tree is about 600 modules, each resolved, read and
// compiled on its own; es-toolkit's compat entry alone, from which ink takes `throttle`, is 415 of
// them. One file, with the modules nothing uses left out, loads in a fraction of that
// (docs/benchmarks.md, row 11).
// Then the same for the gRPC client libraries: dist/src/cli/grpc-lib.js, which tsc compiled to a
// module that re-exports grpc-js and proto-loader, is replaced by a bundle of them (protobufjs with
// them), for every command that calls the daemon.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * ink's React DevTools hook (DEV=true) stays out: it imports react-devtools-core, which the CLI does
 * not ship (a bundled import of it would fail the whole file), and reads ink's package.json beside
 * its own module, which a bundle has not. The CLI's users are not ink's component authors.
 */
const withoutDevtools = {
  name: 'without-ink-devtools',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]ink[\\/]build[\\/]utils\.js$/ }, () => ({
      contents: 'export const isDev = () => false;',
      loader: 'js',
    }));
    build.onResolve({ filter: /^\.\/devtools\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]ink[\\/]/.test(args.importer) ? { path: args.path, external: true } : undefined,
    );
  },
};

await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/views/render.tsx'],
  outfile: 'dist/src/cli/views-bundle.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // React's production build (its development build is twice the code, and only adds warnings for
  // the components' authors): the condition is settled here, so the other build is not in the file.
  define: { 'process.env.NODE_ENV': '"production"' },
  // CommonJS modules in the bundle (React's) may require node's own modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  // Not minified: it loaded no faster minified (CPU time, 11 runs in turn), and a stack trace from it
  // stays readable; the map (node --enable-source-maps) leads back to src/ and node_modules.
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [withoutDevtools],
});

await build({
  absWorkingDir: root,
  entryPoints: ['dist/src/cli/grpc-lib.js'],
  outfile: 'dist/src/cli/grpc-lib.js',
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // grpc-js and protobufjs are CommonJS, and protobufjs asks for optional modules (long) by name at
  // run time: `require` is node's, resolved from the file's place in the package.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
});
