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
  const rows = new Map<string, string>();
  for (const line of readme.split('\n')) {
    const m = /^\| `([A-Z0-9_]+)` \|/.exec(line);
    if (m) rows.set(m[1], line);
  }
  for (const spec of Object.values(optionSpecs)) {
    const row = rows.get(spec.env);
    t.ok(row, `${spec.env} has a row`);
    if (row === undefined) continue;
    if ('flag' in spec && spec.flag !== undefined) t.match(row, `\`--${spec.flag}\``, `${spec.env} names its flag`);
    const parsed = spec.schema.safeParse(undefined);
    if (parsed.success && parsed.data !== undefined && typeof parsed.data !== 'boolean') {
      const shown = Array.isArray(parsed.data) ? parsed.data.join(',') : String(parsed.data);
      t.match(row, `\`${shown}\``, `${spec.env} shows its default`);
    }
  }
  const known = new Set(Object.values(optionSpecs).map((s) => s.env));
  for (const name of rows.keys()) t.ok(known.has(name), `README row ${name} is a real setting`);
});
