import { Option, type Command } from 'commander';
import { eventKinds } from '../../domain/events/types.js';
import type { Event__Output } from '../../grpc/generated/switchyard/admin/v1/Event.js';
import type { EventServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/EventService.js';
import { allPages, type AdminClient, type Plain } from '../client.js';
import { shortTime } from '../format.js';
import { choiceOption, hiddenAlias, limitOption, orgOption } from '../options.js';
import { execute, executeStream } from '../output.js';

export type Event = Plain<Event__Output>;

/** An organization's events, the stored ones after `since` and then each as it commits, until `signal` aborts. */
export function tailEvents(
  client: AdminClient,
  request: { organization: string; kind?: string; since?: string },
  options: { signal: AbortSignal; onOpen?: () => void },
): AsyncIterable<Event> {
  return client.streams<EventServiceDefinition>('EventService').TailEvents(request, options);
}

/** One event on one line: time, kind, id, payload. */
export function eventLine(event: Event): string {
  return `${event.timestamp}  ${event.kind}  ${event.id}  ${JSON.stringify(event.payload)}`;
}

export function registerEvents(program: Command): void {
  const events = program.command('events').description('the domain event log');

  events
    .command('list')
    .description("the organization's stored events, oldest first (as GET /v1/organizations/{id}/events)")
    .addOption(orgOption())
    .addOption(choiceOption('--kind <kind>', 'only events of this kind', eventKinds))
    .option('--after <event-id>', 'only the events after this one (evt_...)')
    .addOption(limitOption())
    .action((opts: { org: string; kind?: string; after?: string; limit?: number }, command: Command) =>
      execute(command, {
        label: 'reading the event log',
        run: (client) =>
          allPages(async (cursor, limit) => {
            const page = await client.service<EventServiceDefinition>('EventService').ListEvents({
              organization: opts.org,
              cursor,
              limit,
              ...(opts.kind === undefined ? {} : { kind: opts.kind }),
              ...(opts.after === undefined ? {} : { after: opts.after }),
            });
            return [page.events, page.next_cursor];
          }, opts.limit),
        view: (list) => [
          {
            kind: 'table',
            columns: ['ID', 'KIND', 'TIME', 'PAYLOAD'],
            rows: list.map((e) => [e.id, { text: e.kind, tone: 'accent' }, shortTime(e.timestamp), JSON.stringify(e.payload)]),
            empty: 'no events',
          },
        ],
      }),
    );

  events
    .command('tail')
    .description('print events as they commit, one a line (JSON lines with --json), until interrupted')
    .addOption(orgOption())
    .addOption(choiceOption('--kind <kind>', 'only events of this kind', eventKinds))
    .option('--after <event-id>', 'first print the stored events after this one (evt_...)')
    // The contract's first spelling; `--since` is a time everywhere else.
    .addOption(hiddenAlias(new Option('--since <event-id>', 'old name of --after'), 'after'))
    .action((opts: { org: string; kind?: string; after?: string }, command: Command) =>
      executeStream(command, {
        run: async (client, print, signal) => {
          const request = {
            organization: opts.org,
            ...(opts.kind === undefined ? {} : { kind: opts.kind }),
            ...(opts.after === undefined ? {} : { since: opts.after }),
          };
          for await (const event of tailEvents(client, request, { signal })) print(event, eventLine(event));
        },
      }),
    );
}
