// The CLI's ink views, rendered with ink-testing-library: tables sized to their content, colour for
// states, the error line, and a spinner that gives way to the result. Plain text (pipes, NO_COLOR)
// must show the same layout without colour.
import t from 'tap';
import { waitFor } from './helpers.js';
import type { TableView, View } from '../src/cli/view.js';

// chalk decides its colour level when it loads; the test's stdout is a pipe, so force colour first.
process.env.FORCE_COLOR = '1';
// ink decides when it loads whether it runs in CI (CI or CONTINUOUS_INTEGRATION set), and there it
// draws only the final frame. These tests check what a person at a terminal sees, a spinner that
// turns, so ink loads as it would in a terminal, also when the suite itself runs in CI.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
const { createElement: h } = await import('react');
const { Text } = await import('ink');
const { render } = await import('ink-testing-library');
const { Table } = await import('../src/cli/views/table.js');
const { Screen } = await import('../src/cli/views/screen.js');
const { ErrorMessage } = await import('../src/cli/views/error-message.js');
const { Task } = await import('../src/cli/views/task.js');
const { fitColumns, renderPlain, truncate } = await import('../src/cli/view.js');
const { outputMode } = await import('../src/cli/output.js');

const ANSI = /\x1b\[[0-9;]*m/g;
const strip = (text: string | undefined) => (text ?? '').replace(ANSI, '');
const RED = '\x1b[31m';
const GREEN = '\x1b[32m';

const keys: TableView = {
  kind: 'table',
  columns: ['NAME', 'STATE', 'SCOPES'],
  rows: [
    ['ci', { text: 'active', tone: 'good' }, 'full access'],
    ['a-much-longer-name', { text: 'revoked', tone: 'bad' }, 'jobs:read'],
  ],
  empty: 'no keys',
};

t.test('a table: columns as wide as their content, states in colour', async (t) => {
  const { lastFrame, unmount } = render(h(Table, { view: keys }));
  t.teardown(unmount);
  t.equal(
    strip(lastFrame()),
    [
      'NAME                STATE    SCOPES',
      'ci                  active   full access',
      'a-much-longer-name  revoked  jobs:read',
    ].join('\n'),
  );
  t.ok(lastFrame()!.includes(`${GREEN}active`), 'active in green');
  t.ok(lastFrame()!.includes(`${RED}revoked`), 'revoked in red');
  t.equal(strip(lastFrame()), renderPlain(keys), 'plain text has the same layout');
  t.notMatch(renderPlain(keys), ANSI, 'and no colour');
});

t.test('a table wider than the terminal: the widest columns shrink, with an ellipsis; plain text stays whole', async (t) => {
  // Widths 10, 40 and 20 with two gaps of 2: 74 characters.
  t.same(fitColumns([10, 40, 20], 80), [10, 40, 20], 'what fits is left alone');
  t.same(fitColumns([10, 40, 20], 54), [10, 20, 20], 'the widest gives way first');
  t.same(fitColumns([10, 40, 20], 44), [10, 15, 15], 'then the widest in turn');
  t.same(fitColumns([10, 40, 20], 10), [6, 6, 6], 'never below six characters');
  t.same(fitColumns([10, 40, 20], undefined), [10, 40, 20], 'no terminal width known: as wide as the content');
  t.equal(truncate('someone@example.com', 10), 'someone@e…');
  t.equal(truncate('short', 10), 'short');

  const wide: TableView = {
    kind: 'table',
    columns: ['NAME', 'EMAIL'],
    rows: [['ann', 'someone-with-a-rather-long-address@example.com'.repeat(3)]],
    empty: 'none',
  };
  const { lastFrame, unmount } = render(h(Table, { view: wide }));
  t.teardown(unmount);
  const lines = strip(lastFrame()).split('\n');
  // ink-testing-library's terminal is 100 columns wide.
  for (const line of lines) t.ok(line.length <= 100, `fits: ${line}`);
  t.match(lines[1], /^ann\s+someone-with-a-rather-long-address@example\.com\S*…$/);
  t.match(renderPlain(wide), 'someone-with-a-rather-long-address@example.com'.repeat(3), 'plain text is never cut');
});

t.test('an empty table says so', async (t) => {
  const view: TableView = { ...keys, rows: [], title: 'Keys' };
  const { lastFrame, unmount } = render(h(Table, { view }));
  t.teardown(unmount);
  t.equal(strip(lastFrame()), 'Keys\nno keys');
  t.equal(renderPlain(view), 'Keys\nno keys');
});

t.test('a screen stacks records, tables and messages', async (t) => {
  const views: View[] = [
    { kind: 'message', text: 'Created organization acme.', tone: 'good' },
    {
      kind: 'record',
      fields: [
        ['id', '42'],
        ['display name', { text: 'Acme', tone: 'accent' }],
      ],
    },
    keys,
  ];
  const { lastFrame, unmount } = render(h(Screen, { views }));
  t.teardown(unmount);
  t.equal(strip(lastFrame()), views.map(renderPlain).join('\n\n'), 'one blank line between views, as in plain text');
  t.match(strip(lastFrame()), /^id:\s{12}42$/m, 'record labels aligned');
});

t.test('an error is one red line', async (t) => {
  const { lastFrame, unmount } = render(
    h(ErrorMessage, { line: 'no daemon at /x/admin.sock: start it with `switchyard serve`' }),
  );
  t.teardown(unmount);
  t.equal(strip(lastFrame()), '✖ no daemon at /x/admin.sock: start it with `switchyard serve`');
  t.ok(lastFrame()!.startsWith(RED), 'in red');
  t.equal(strip(lastFrame()).split('\n').length, 1);
});

t.test('a spinner while the daemon works, then the result', async (t) => {
  let finish!: (value: number) => void;
  const promise = new Promise<number>((resolve) => (finish = resolve));
  const { lastFrame, frames, unmount } = render(
    h(Task<number>, { promise, label: 'listing organizations', children: (n: number) => h(Text, null, `${n} organizations`) }),
  );
  t.teardown(unmount);
  t.match(strip(lastFrame()), /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] listing organizations$/, 'spinner and label');
  await waitFor(() => new Set(frames.map((f) => strip(f)[0])).size >= 3, { what: 'the spinner to turn' });

  finish(3);
  await waitFor(() => strip(lastFrame()) === '3 organizations', { what: 'the result' });
  t.pass('the result replaced the spinner');
  t.notMatch(strip(lastFrame()), /listing/, 'no spinner left');
});

t.test('a failed task leaves no spinner behind', async (t) => {
  const promise = Promise.reject(new Error('boom'));
  promise.catch(() => undefined);
  const { lastFrame, unmount } = render(h(Task<number>, { promise, label: 'working', children: () => h(Text, null, 'never') }));
  t.teardown(unmount);
  await waitFor(() => strip(lastFrame()) === '', { what: 'the spinner to go' });
  t.pass('nothing is left on screen; the caller prints the error');
});

t.test('output mode: --json, pipes and NO_COLOR get no ink', async (t) => {
  t.equal(outputMode(true, { isTTY: true }, {}), 'json');
  t.equal(outputMode(undefined, { isTTY: true }, {}), 'ink');
  t.equal(outputMode(undefined, { isTTY: false }, {}), 'plain', 'stdout not a terminal');
  t.equal(outputMode(undefined, {}, {}), 'plain');
  t.equal(outputMode(undefined, { isTTY: true }, { NO_COLOR: '1' }), 'plain', 'NO_COLOR');
  t.equal(outputMode(undefined, { isTTY: true }, { NO_COLOR: '' }), 'ink', 'an empty NO_COLOR does not count');
});
