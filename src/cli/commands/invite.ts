import type { Command } from 'commander';
import { invitationStatuses, type InvitationStatus } from '../../domain/invitations/types.js';
import type { Invitation__Output } from '../../grpc/generated/switchyard/admin/v1/Invitation.js';
import type { InvitationServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/InvitationService.js';
import { allPages, type AdminClient, type Plain } from '../client.js';
import { roleCell, shortTime } from '../format.js';
import { choiceOption, orgOption, roleOption, limitOption, yesOption } from '../options.js';
import { execute, type Cell, type RecordView } from '../output.js';

type Invitation = Plain<Invitation__Output>;

const invitations = (client: AdminClient) => client.service<InvitationServiceDefinition>('InvitationService');

const statusTones: Record<InvitationStatus, Cell['tone']> = {
  pending: 'warn',
  accepted: 'good',
  revoked: 'bad',
  expired: 'muted',
};

function invitationStatusCell(status: string): Cell {
  return { text: status, tone: statusTones[status as InvitationStatus] };
}

const none: Cell = { text: '-', tone: 'muted' };

function invitationRecord(inv: Invitation): RecordView {
  const fields: RecordView['fields'] = [
    ['id', inv.id],
    ['email', { text: inv.email, tone: 'accent' }],
    ['role', roleCell(inv.role)],
    ['status', invitationStatusCell(inv.status)],
    ['organization', inv.organization_id],
    ['invited by', inv.created_by ?? { text: 'operator', tone: 'muted' }],
    ['expires', shortTime(inv.expires_at)],
    ['mails queued', String(inv.send_count)],
    ['latest mail', inv.outbox_entry_id ?? none],
  ];
  if (inv.accepted_at !== null)
    fields.push(
      ['accepted', `${shortTime(inv.accepted_at)} by ${inv.accepted_by ?? '?'}`],
      ['membership', inv.membership_id ?? none],
    );
  if (inv.revoked_at !== null)
    fields.push([
      'revoked',
      `${shortTime(inv.revoked_at)}${inv.revoked_by === null ? ' by the operator' : ` by ${inv.revoked_by}`}`,
    ]);
  if (inv.expired_at !== null) fields.push(['expired', shortTime(inv.expired_at)]);
  return { kind: 'record', fields };
}

const outboxHint = {
  kind: 'message',
  text: 'The mail is in the outbox: `switchyard outbox list` (held mail shows its accept link).',
  tone: 'muted',
} as const;

export function registerInvite(program: Command): void {
  const invite = program.command('invite').description('invitations: an email, a role, an accept link by mail');

  invite
    .command('create')
    .description('invite an email address to an organization with a role, and queue the mail')
    .addOption(orgOption())
    .requiredOption('--email <email>', 'who to invite')
    .addOption(roleOption('the role they get on accepting'))
    .action((opts: { org: string; email: string; role: string }, command: Command) =>
      execute(command, {
        label: `inviting ${opts.email} to ${opts.org}`,
        run: (client) => invitations(client).CreateInvitation({ organization: opts.org, email: opts.email, role: opts.role }),
        fields: { email: '--email', role: '--role' },
        view: (inv) => [
          { kind: 'message', text: `Invited ${inv.email} as ${inv.role}.`, tone: 'good' },
          invitationRecord(inv),
          outboxHint,
        ],
      }),
    );

  invite
    .command('list')
    .description("an organization's invitations, oldest first")
    .addOption(orgOption())
    .addOption(choiceOption('--status <status>', 'only invitations in this state', invitationStatuses))
    .addOption(limitOption())
    .action((opts: { org: string; status?: string; limit?: number }, command: Command) =>
      execute(command, {
        label: `listing invitations of ${opts.org}`,
        run: (client) =>
          allPages(async (cursor, limit) => {
            const page = await invitations(client).ListInvitations({
              organization: opts.org,
              cursor,
              limit,
              ...(opts.status === undefined ? {} : { status: opts.status }),
            });
            return [page.invitations, page.next_cursor];
          }, opts.limit),
        view: (list) => [
          {
            kind: 'table',
            columns: ['ID', 'EMAIL', 'ROLE', 'STATUS', 'EXPIRES', 'SENT'],
            rows: list.map((inv) => [
              inv.id,
              inv.email,
              roleCell(inv.role),
              invitationStatusCell(inv.status),
              shortTime(inv.expires_at),
              String(inv.send_count),
            ]),
            empty: opts.status === undefined ? 'no invitations' : `no ${opts.status} invitations`,
          },
        ],
      }),
    );

  invite
    .command('show <invitation-id>')
    .description('one invitation')
    .action((id: string, _opts: unknown, command: Command) =>
      execute(command, {
        label: `looking up invitation ${id}`,
        run: (client) => invitations(client).GetInvitation({ id }),
        view: (inv) => [invitationRecord(inv)],
      }),
    );

  invite
    .command('revoke <invitation-id>')
    .description('revoke a pending invitation; its link stops working and unsent mail is cancelled')
    .addOption(yesOption())
    .action((id: string, _opts: unknown, command: Command) =>
      execute(command, {
        label: `revoking invitation ${id}`,
        confirm: async (client) => {
          const inv = await invitations(client).GetInvitation({ id });
          return `This revokes the ${inv.status} invitation of ${inv.email} (${inv.role}): its link stops working and unsent mail is cancelled.`;
        },
        run: (client) => invitations(client).RevokeInvitation({ id }),
        view: (inv) => [
          { kind: 'message', text: `Revoked the invitation of ${inv.email}.`, tone: 'good' },
          invitationRecord(inv),
        ],
      }),
    );

  invite
    .command('resend <invitation-id>')
    .description('mail a pending invitation again with a new link (the old one stops working)')
    .action((id: string, _opts: unknown, command: Command) =>
      execute(command, {
        label: `re-sending invitation ${id}`,
        run: (client) => invitations(client).ResendInvitation({ id }),
        view: (inv) => [
          { kind: 'message', text: `Re-sent the invitation of ${inv.email}.`, tone: 'good' },
          invitationRecord(inv),
          outboxHint,
        ],
      }),
    );
}
