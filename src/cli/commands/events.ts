import type { Command } from 'commander';
import { eventKinds } from '../../domain/events/types.js';
import type { Event__Output } from '../../grpc/generated/switchyard/admin/v1/Event.js';
import type { EventServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/EventService.js';
import type { AdminClient, Plain } from '../client.js';
import { choiceOption, orgOption } from '../options.js';
import { executeStream } from '../output.js';

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
    .command('tail')
    .description('print events as they commit, one a line (JSON lines with --json), until interrupted')
    .addOption(orgOption())
    .addOption(choiceOption('--kind <kind>', 'only events of this kind', eventKinds))
    .option('--since <event-id>', 'first print the stored events after this one (evt_...)')
    .action((opts: { org: string; kind?: string; since?: string }, command: Command) =>
      executeStream(command, {
        run: async (client, print, signal) => {
          const request = {
            organization: opts.org,
            ...(opts.kind === undefined ? {} : { kind: opts.kind }),
            ...(opts.since === undefined ? {} : { since: opts.since }),
          };
          for await (const event of tailEvents(client, request, { signal })) print(event, eventLine(event));
        },
      }),
    );
}
