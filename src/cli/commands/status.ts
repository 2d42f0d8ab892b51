import type { Command } from 'commander';
import type { DaemonServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/DaemonService.js';
import { formatDuration, shortTime } from '../format.js';
import { execute, type Cell, type View } from '../output.js';

/** `12 (3 held, 1 failed)`: the entries, and those in a state that needs a look. */
function outboxLine(total: number, byStatus: Record<string, number>): Cell {
  const notable = ['held', 'failed', 'pending'].filter((status) => (byStatus[status] ?? 0) > 0);
  const text =
    notable.length === 0 ? String(total) : `${total} (${notable.map((status) => `${byStatus[status]} ${status}`).join(', ')})`;
  return { text, tone: (byStatus.failed ?? 0) > 0 ? 'bad' : undefined };
}

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description("the daemon's version, addresses, email transport, public URL, JWT, loops and record counts")
    .action((_opts: unknown, command: Command) =>
      execute(command, {
        label: 'asking the daemon',
        run: (client) => client.service<DaemonServiceDefinition>('DaemonService').GetStatus({}),
        view: (s): View[] => [
          {
            kind: 'record',
            fields: [
              ['state', { text: s.state, tone: s.state === 'running' ? 'good' : 'warn' }],
              ['version', s.version],
              ['env', s.env],
              ['uptime', `${formatDuration(s.uptime_seconds)} (since ${shortTime(s.started_at)})`],
              ['data dir', s.data_dir],
              ['storage', s.storage_engine === 'postgres' ? 'PostgreSQL (SERVICE_DATABASE_URL)' : 'LevelDB (in the data dir)'],
              ['http', s.http_url],
              ['grpc socket', s.grpc_socket],
              ['grpc tcp', s.grpc_address ?? { text: 'off', tone: 'muted' }],
              ['public url', s.public_url_set ? s.public_url : { text: `${s.public_url} (the HTTP listener)`, tone: 'muted' }],
              [
                'email',
                s.email_transport === 'held'
                  ? { text: 'held (no transport: mail stays in the outbox)', tone: 'warn' }
                  : { text: s.email_transport, tone: 'good' },
              ],
              ['jwt', s.jwt_enabled ? { text: 'on', tone: 'good' } : { text: 'off (JWT_SECRET unset)', tone: 'muted' }],
              ['invitations', `${s.counts.invitations ?? 0} (${s.pending_invitations} pending)`],
              ['outbox', outboxLine(s.counts.email_outbox ?? 0, s.outbox)],
              ['events', String(s.counts.events ?? 0)],
            ],
          },
          {
            kind: 'table',
            title: 'Loops',
            columns: ['LOOP', 'STATE', 'EVERY', 'RUNS', 'FAILURES', 'LAST RUN', 'LAST ERROR'],
            rows: s.loops.map((l) => [
              l.name,
              l.running ? { text: 'running', tone: 'good' } : { text: 'stopped', tone: 'bad' },
              formatDuration(l.interval_ms / 1000),
              String(l.runs),
              { text: String(l.failures), tone: l.consecutive_failures > 0 ? 'bad' : undefined },
              shortTime(l.last_run_at),
              l.last_error === null ? '-' : { text: l.last_error, tone: 'bad' },
            ]),
            empty: 'no background loops',
          },
          {
            kind: 'table',
            title: 'Records',
            columns: ['TABLE', 'COUNT'],
            rows: Object.entries(s.counts).map(([name, n]) => [name, String(n)]),
            empty: 'no tables',
          },
        ],
      }),
    );
}
