import type { Command } from 'commander';
import type { AuditRecord__Output } from '../../grpc/generated/switchyard/admin/v1/AuditRecord.js';
import type { AuditServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/AuditService.js';
import { allPages, type AdminClient, type Plain } from '../client.js';
import { shortTime } from '../format.js';
import { limitOption, orgOption } from '../options.js';
import { execute } from '../output.js';

type AuditRecord = Plain<AuditRecord__Output>;

const audit = (client: AdminClient) => client.service<AuditServiceDefinition>('AuditService');

/** Who: a key (with the principal it acts as), a principal, or the operator. */
function actorText(record: AuditRecord): string {
  const actor = record.actor;
  if (actor === null || actor.type === 'operator') return 'operator';
  if (actor.type === 'api_key') return `key ${actor.api_key_id ?? '?'}`;
  return `${actor.principal_id ?? '?'}${actor.method === 'invitation_link' ? ' (invitation link)' : ''}`;
}

/** What changed, in one short line: `role: member -> admin`, or the fields a creation set. */
function changeText(record: AuditRecord): string {
  const before = record.before ?? {};
  const after = record.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  if (record.before === null || record.after === null) return fields.length === 0 ? '' : `${fields.length} fields`;
  return fields.map((f) => `${f}: ${JSON.stringify(before[f] ?? null)} -> ${JSON.stringify(after[f] ?? null)}`).join('; ');
}

/** The HTTP API's shape: the changed fields under `changes`. */
function asJson({ before, after, ...record }: AuditRecord) {
  return { ...record, changes: { before, after } };
}

export function registerAudit(program: Command): void {
  const group = program.command('audit').description('the audit log: who changed what, when, and through what');

  group
    .command('list')
    .description("an organization's changes, oldest first (without --org: provider settings, changed outside organizations)")
    .addOption(orgOption('the organization (id or slug)'))
    .option('--actor <id>', 'only changes by this principal or API key id, or by `operator`')
    .option('--action <action>', 'only this action, e.g. member.update')
    .option('--since <time>', 'only changes at or after this ISO 8601 time')
    .option('--until <time>', 'only changes before this ISO 8601 time')
    .addOption(limitOption())
    .action(
      (
        opts: { org?: string; actor?: string; action?: string; since?: string; until?: string; limit?: number },
        command: Command,
      ) =>
        execute(command, {
          label: 'reading the audit log',
          run: (client) =>
            allPages(async (cursor, limit) => {
              const page = await audit(client).ListAuditLog({
                organization: opts.org ?? '',
                cursor,
                limit,
                ...(opts.actor === undefined ? {} : { actor: opts.actor }),
                ...(opts.action === undefined ? {} : { action: opts.action }),
                ...(opts.since === undefined ? {} : { since: opts.since }),
                ...(opts.until === undefined ? {} : { until: opts.until }),
              });
              return [page.records, page.next_cursor];
            }, opts.limit),
          json: (records) => records.map(asJson),
          view: (records) => [
            {
              kind: 'table',
              columns: ['TIME', 'ACTOR', 'ACTION', 'TARGET', 'VIA', 'CHANGES'],
              rows: records.map((r) => [
                shortTime(r.timestamp),
                actorText(r),
                { text: r.action, tone: 'accent' },
                r.target === null ? '-' : `${r.target.type} ${r.target.id}`,
                r.source,
                changeText(r),
              ]),
              empty: 'no changes recorded',
            },
          ],
        }),
    );
}
