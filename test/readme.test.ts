import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { optionSpecs } from '../src/config/schema.js';
import { repoRoot } from './helpers.js';

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

t.test('README shows the two set-up commands', async (t) => {
  t.match(readme, /npm ci && npm start/);
  t.match(readme, /npm ci && npm test/);
});

t.test('README lists every configuration variable with its flag and default', async (t) => {
  // Rows before the "not built yet" heading are the main table; rows after it, the planned settings
  // (a part the README has only while some setting is planned).
  const plannedAt = readme.indexOf('### Settings for features not built yet');
  const anyPlanned = Object.values(optionSpecs).some((spec) => spec.planned !== undefined);
  t.equal(plannedAt > 0, anyPlanned, 'a part for settings of features not built yet exactly when there are some');
  const rows = new Map<string, { line: string; planned: boolean }>();
  let offset = 0;
  for (const line of readme.split('\n')) {
    const m = /^\| `([A-Z0-9_]+)` \|/.exec(line);
    if (m) {
      t.notOk(rows.has(m[1]), `${m[1]} has one row`);
      rows.set(m[1], { line, planned: plannedAt > 0 && offset > plannedAt });
    }
    offset += line.length + 1;
  }
  for (const spec of Object.values(optionSpecs)) {
    const row = rows.get(spec.env);
    t.ok(row, `${spec.env} has a row`);
    if (row === undefined) continue;
    if (spec.planned === undefined) t.notOk(row.planned, `${spec.env} (built) is in the main table`);
    else {
      t.ok(row.planned, `${spec.env} (planned) is listed as not built yet`);
      t.match(row.line, ` | ${spec.planned} | `, `${spec.env} names its planned feature`);
    }
    if (spec.flag !== undefined) t.match(row.line, `\`--${spec.flag}\``, `${spec.env} names its flag`);
    if (spec.secret === true) t.match(row.line, '(secret: never logged)', `${spec.env} is marked secret`);
    const parsed = spec.schema.safeParse(undefined);
    if (parsed.success && parsed.data !== undefined && typeof parsed.data !== 'boolean') {
      const value = parsed.data as string | number | readonly unknown[] | Record<string, unknown>;
      const shown = Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value);
      t.match(row.line, `\`${shown}\``, `${spec.env} shows its default`);
    }
  }
  const known = new Set(Object.values(optionSpecs).map((s) => s.env));
  for (const name of rows.keys()) t.ok(known.has(name), `README row ${name} is a real setting`);
});

t.test('README claims no unbuilt feature as built', async (t) => {
  const intro = readme.slice(0, readme.indexOf('## Set-up'));
  t.notMatch(intro, /not built yet/i, 'the intro claims nothing unbuilt: every feature it names is built');
  const mainTable = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## HTTP conventions'));
  t.notMatch(mainTable, /not built yet|\(planned\)/i, 'the main configuration part describes only built features');
});
