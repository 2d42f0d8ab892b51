import type { Command } from 'commander';
import { outboxStatuses, type OutboxStatus } from '../../domain/email/types.js';
import type { OutboxEntry__Output } from '../../grpc/generated/switchyard/admin/v1/OutboxEntry.js';
import type { OrganizationServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/OrganizationService.js';
import type { OutboxServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/OutboxService.js';
import { allPages, type AdminClient, type Plain } from '../client.js';
import { shortTime } from '../format.js';
import { choiceOption, orgOption, limitOption } from '../options.js';
import { execute, type Cell, type RecordView, type TableView } from '../output.js';

type OutboxEntry = Plain<OutboxEntry__Output>;

const outbox = (client: AdminClient) => client.service<OutboxServiceDefinition>('OutboxService');

const statusTones: Record<OutboxStatus, Cell['tone']> = {
  pending: 'warn',
  sending: 'warn',
  sent: 'good',
  failed: 'bad',
  held: 'accent',
  cancelled: 'muted',
};

function statusCell(status: string): Cell {
  return { text: status, tone: statusTones[status as OutboxStatus] };
}

const none: Cell = { text: '-', tone: 'muted' };

function entryRecord(entry: OutboxEntry): RecordView {
  const fields: RecordView['fields'] = [
    ['id', entry.id],
    ['to', { text: entry.to, tone: 'accent' }],
    ['status', statusCell(entry.status)],
    ['from', entry.from],
    ['subject', entry.subject],
    ['organization', entry.organization_id],
    ['invitation', entry.invitation_id],
    ['attempts', String(entry.attempts.length)],
    ['next attempt', entry.next_attempt_at === null ? none : shortTime(entry.next_attempt_at)],
    ['created', shortTime(entry.created_at)],
  ];
  if (entry.sent_at !== null) fields.push(['sent', shortTime(entry.sent_at)]);
  if (entry.last_error !== null) fields.push(['last error', { text: entry.last_error, tone: 'bad' }]);
  if (entry.accept_url !== null) fields.push(['accept link', { text: entry.accept_url, tone: 'accent' }]);
  return { kind: 'record', fields };
}

function attemptsTable(entry: OutboxEntry): TableView {
  return {
    kind: 'table',
    title: 'Attempts',
    columns: ['AT', 'DURATION', 'STATUS CODE', 'RESULT'],
    rows: entry.attempts.map((a) => [
      shortTime(a.at),
      `${a.duration_ms} ms`,
      a.status_code === null ? '-' : String(a.status_code),
      a.error === null
        ? { text: 'sent', tone: 'good' }
        : { text: a.interrupted ? `${a.error} (interrupted)` : a.error, tone: 'bad' },
    ]),
    empty: 'no attempts yet',
  };
}

const heldHint = (entries: OutboxEntry[]) =>
  entries.some((e) => e.status === 'held')
    ? [
        {
          kind: 'message',
          text: 'Held mail is not sent (no email transport): open its accept link to accept the invitation locally.',
          tone: 'muted',
        } as const,
      ]
    : [];

export function registerOutbox(program: Command): void {
  const box = program.command('outbox').description('the email outbox: queued, sent, failed and held invitation mail');

  box
    .command('list')
    .description('mail, newest first; held mail shows its accept link')
    .addOption(orgOption('only this organization (id or slug)'))
    .addOption(choiceOption('--status <status>', 'only mail in this state', outboxStatuses))
    .addOption(limitOption())
    .action((opts: { org?: string; status?: string; limit?: number }, command: Command) =>
      execute(command, {
        label: 'listing the outbox',
        run: async (client) => {
          const entries = await allPages(async (cursor, limit) => {
            const page = await outbox(client).ListOutbox({
              cursor,
              limit,
              ...(opts.org === undefined ? {} : { organization: opts.org }),
              ...(opts.status === undefined ? {} : { status: opts.status }),
            });
            return [page.entries, page.next_cursor];
          }, opts.limit);
          // Across organizations, each mail's organization is shown by slug.
          const slugs = new Map<string, string>();
          if (opts.org === undefined && entries.length > 0)
            for (const o of await allPages(async (cursor, limit) => {
              const page = await client
                .service<OrganizationServiceDefinition>('OrganizationService')
                .ListOrganizations({ cursor, limit });
              return [page.organizations, page.next_cursor];
            }))
              slugs.set(o.id, o.slug);
          return { entries, slugs };
        },
        json: ({ entries }) => entries,
        view: ({ entries: list, slugs }) => [
          {
            kind: 'table',
            columns: [
              ...(opts.org === undefined ? ['ORG'] : []),
              'ID',
              'TO',
              'STATUS',
              'ATTEMPTS',
              'NEXT ATTEMPT',
              'ACCEPT LINK',
            ],
            rows: list.map((e) => [
              ...(opts.org === undefined ? [slugs.get(e.organization_id) ?? e.organization_id] : []),
              e.id,
              e.to,
              statusCell(e.status),
              String(e.attempts.length),
              shortTime(e.next_attempt_at),
              e.accept_url === null ? none : { text: e.accept_url, tone: 'accent' },
            ]),
            empty: 'the outbox is empty',
          },
          ...heldHint(list),
        ],
      }),
    );

  box
    .command('show <entry-id>')
    .description('one mail with its attempts')
    .action((id: string, _opts: unknown, command: Command) =>
      execute(command, {
        label: `looking up mail ${id}`,
        run: (client) => outbox(client).GetOutboxEntry({ id }),
        view: (e) => [entryRecord(e), attemptsTable(e)],
      }),
    );

  box
    .command('retry <entry-id>')
    .description('send failed mail again with a fresh retry budget (held mail too, once a transport is configured)')
    .action((id: string, _opts: unknown, command: Command) =>
      execute(command, {
        label: `queueing mail ${id} again`,
        run: (client) => outbox(client).RetryOutboxEntry({ id }),
        view: (e) => [{ kind: 'message', text: `Queued the mail to ${e.to} again.`, tone: 'good' }, entryRecord(e)],
      }),
    );
}
