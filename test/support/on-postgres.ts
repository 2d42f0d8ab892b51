// Contract 11 and issue 10: every feature behaves the same on PostgreSQL. The test files named by the
// test/on-postgres-*.test.ts files run again there, unchanged, with their daemons on a throwaway
// PostgreSQL (each daemon on a fresh database: test/helpers.ts withTestEngine). Each group runs in
// one child TAP process whose tests show up as subtests, so a failure names the test and assertion.
// The groups are separate test files so that tap runs them side by side: as one file they were the
// suite's longest by far (213 s of a 461 s run), and the run waited for it alone at the end.
import path from 'node:path';
import t from 'tap';
import { repoRoot } from '../helpers.js';
import { findPostgres, startPostgres } from './postgres.js';

/** Runs `files` (names under test/, without `.test.ts`) on a PostgreSQL cluster of their own. */
export async function runOnPostgres(files: readonly string[], what: string): Promise<void> {
  const found = findPostgres();
  if ('missing' in found) {
    t.plan(0, `missing ${found.missing}`);
    return;
  }
  const cluster = await startPostgres(t);
  // One child runs every file (one TypeScript start-up, not one per file), with the loader flags tap
  // gave this process (TypeScript, coverage), so it runs as tap would; its tests show up here.
  void t.spawn(
    process.execPath,
    [...process.execArgv, path.join(repoRoot, 'test', 'fixtures', 'run-files.ts')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        SWITCHYARD_TEST_POSTGRES: cluster.url,
        SWITCHYARD_TEST_FILES: files.map((name) => path.join(repoRoot, 'test', `${name}.test.ts`)).join(','),
      },
    },
    `${what} on PostgreSQL`,
  );
}
