import { InvalidArgumentError, type Command } from 'commander';
import { resettableWebhookFields, resourceFilterFields, type DeliveryStatus } from '../../domain/webhooks/types.js';
import type { Webhook__Output } from '../../grpc/generated/switchyard/admin/v1/Webhook.js';
import type { WebhookDelivery__Output } from '../../grpc/generated/switchyard/admin/v1/WebhookDelivery.js';
import type { WebhookServiceDefinition } from '../../grpc/generated/switchyard/admin/v1/WebhookService.js';
import type { WebhookWithSecret__Output } from '../../grpc/generated/switchyard/admin/v1/WebhookWithSecret.js';
import { toValue } from '../../grpc/json-value.js';
import { CliError } from '../cli-error.js';
import { allPages, type AdminClient, type Plain } from '../client.js';
import { counted, parseInteger, shortTime } from '../format.js';
import {
  hiddenAlias,
  kindsOption,
  limitOption,
  orgOption,
  repeatableChoiceOption,
  requireSomeChange,
  yesOption,
} from '../options.js';
import { execute, type Cell, type RecordView, type View } from '../output.js';

type Webhook = Plain<Webhook__Output>;
type Delivery = Plain<WebhookDelivery__Output>;
type WithSecret = Plain<WebhookWithSecret__Output>;

const webhooks = (client: AdminClient) => client.service<WebhookServiceDefinition>('WebhookService');

const none: Cell = { text: '-', tone: 'muted' };

/** `--state <json>`: any JSON value. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidArgumentError('expected JSON, e.g. \'{"tenant": "a"}\'');
  }
}

const filterKeys = Object.keys(resourceFilterFields);

/** `--resource-filter key=value`, repeatable: the resource filter built up. */
function parseResourceFilter(text: string, previous: Record<string, string> | undefined): Record<string, string> {
  const cut = text.indexOf('=');
  const key = text.slice(0, Math.max(cut, 0));
  if (cut < 1 || !filterKeys.includes(key) || cut === text.length - 1)
    throw new InvalidArgumentError(`expected key=value with a key of ${filterKeys.join(', ')}`);
  return { ...previous, [key]: text.slice(cut + 1) };
}

function webhookState(w: Webhook): Cell {
  if (w.deleted_at !== null) return { text: 'deleted', tone: 'bad' };
  return w.active ? { text: 'active', tone: 'good' } : { text: 'paused', tone: 'warn' };
}

function eventsCell(w: Webhook): Cell {
  return w.event_filter.length === 0 ? { text: 'every kind', tone: 'muted' } : { text: w.event_filter.join(', ') };
}

function webhookRecord(w: Webhook): RecordView {
  const filter = Object.entries(w.resource_filter);
  const fields: RecordView['fields'] = [
    ['id', w.id],
    ['url', { text: w.url, tone: 'accent' }],
    ['status', webhookState(w)],
    [
      'organization',
      w.all_organizations ? { text: 'every organization (platform webhook)', tone: 'accent' } : (w.organization_id ?? none),
    ],
    ['events', eventsCell(w)],
    ['resources', filter.length === 0 ? { text: 'any', tone: 'muted' } : filter.map(([k, v]) => `${k}=${v}`).join(', ')],
    ['max retries', String(w.max_retries)],
    ['description', w.description ?? none],
    ['state', w.state === null ? none : JSON.stringify(w.state)],
    ['created', shortTime(w.created_at)],
  ];
  if (w.deleted_at !== null) fields.push(['deleted', shortTime(w.deleted_at)]);
  return { kind: 'record', fields };
}

function secretViews({ secret, standard_secret }: WithSecret): View[] {
  const views: View[] = [
    { kind: 'message', text: 'The signing secret, shown this once (X-Service-Signature and webhook-signature):' },
    { kind: 'message', text: secret, tone: 'accent' },
  ];
  // Only a webhook made with an older hex secret has a different spelling for Standard Webhooks libraries.
  if (standard_secret !== secret)
    views.push({
      kind: 'message',
      text: `Standard Webhooks libraries (webhook-signature) take it as: ${standard_secret}`,
      tone: 'muted',
    });
  return views;
}

/** The creation and rotation answer as HTTP shows it: the webhook with its secrets. */
const flatten = ({ webhook, secret, standard_secret }: WithSecret) => ({ ...webhook, secret, standard_secret });

const deliveryTones: Record<DeliveryStatus, Cell['tone']> = { pending: 'warn', delivered: 'good', failed: 'bad' };

function deliveryStatusCell(d: Delivery): Cell {
  return { text: d.status, tone: deliveryTones[d.status as DeliveryStatus] };
}

function deliveryRecord(d: Delivery): RecordView {
  return {
    kind: 'record',
    fields: [
      ['id', d.id],
      ['webhook', d.webhook_id],
      ['event', `${d.event_kind} (${d.event_id})`],
      ['status', deliveryStatusCell(d)],
      ['attempts', String(d.attempt)],
      ['next attempt', d.next_attempt_at === null ? none : shortTime(d.next_attempt_at)],
      ['last error', d.error_message === null ? none : { text: d.error_message, tone: 'bad' }],
    ],
  };
}

/** `--org` or `--all-organizations` (a platform webhook: the events of every organization), exactly one. */
function ownerOptions(command: Command, what: string): Command {
  return command
    .addOption(orgOption('organization id or slug (or --all-organizations)').conflicts('allOrganizations'))
    .option('--all-organizations', what);
}

interface OwnerOptions {
  org?: string;
  allOrganizations?: boolean;
}

/** The request's owner fields; neither flag is a usage error (exit 2), as a missing required option is. */
function ownerRequest(opts: OwnerOptions, command: Command): { organization: string; all_organizations: boolean } {
  if (opts.allOrganizations === true) return { organization: '', all_organizations: true };
  if (opts.org === undefined) command.error("error: required option '--org <org>' (or --all-organizations) not specified");
  return { organization: opts.org, all_organizations: false };
}

const ownerLabel = (opts: OwnerOptions) => (opts.allOrganizations === true ? 'every organization' : (opts.org ?? '?'));

/** The optional `--org` of the commands that name a webhook by id. */
const scopeOption = () => orgOption("only if the webhook is this organization's (id or slug); else not_found");
const scoped = (opts: { org?: string }) => (opts.org === undefined ? {} : { organization: opts.org });

interface ChangeOptions {
  kind?: string[];
  resourceFilter?: Record<string, string>;
  maxRetries?: number;
  description?: string;
  state?: unknown;
}

/** The flags create and update share. */
function changeOptions(command: Command, verb: 'create' | 'update'): Command {
  const replacing = verb === 'update' ? ' (replaces the current list)' : '';
  return command
    .addOption(kindsOption(`deliver only these event kinds (repeatable or a,b; none: every kind)${replacing}`))
    .addOption(hiddenAlias(kindsOption('old name of --kind', '--event <kind>'), 'kind'))
    .option(
      '--resource-filter <key=value>',
      `deliver only events of this resource (repeatable; ${filterKeys.join(', ')})${replacing}`,
      parseResourceFilter,
    )
    .option('--max-retries <n>', 'retries after a failed first attempt (0-20, default 3)', parseInteger)
    .option('--description <text>', 'what the webhook is for')
    .option('--state <json>', 'JSON sent with every delivery as {"event": ..., "state": ...}', parseJson);
}

function changeRequest(opts: ChangeOptions) {
  return {
    ...(opts.kind === undefined ? {} : { event_filter: opts.kind }),
    ...(opts.resourceFilter === undefined ? {} : { resource_filter: opts.resourceFilter }),
    ...(opts.maxRetries === undefined ? {} : { max_retries: opts.maxRetries }),
    ...(opts.description === undefined ? {} : { description: opts.description }),
    ...(opts.state === undefined ? {} : { state: toValue(opts.state) }),
  };
}

/** The API's webhook fields as create and update name them. */
const webhookFields = {
  url: '--url',
  event_filter: '--kind',
  resource_filter: '--resource-filter',
  max_retries: '--max-retries',
  description: '--description',
  state: '--state',
  secret: '--secret',
};

export function registerWebhook(program: Command): void {
  const webhook = program.command('webhook').description('webhooks: signed event deliveries to your HTTP receivers');

  changeOptions(
    ownerOptions(
      webhook.command('create').description('register a webhook; prints its signing secret, shown this once'),
      "a platform webhook: every organization's events, organization.created included (operator only)",
    ).requiredOption('--url <url>', 'the receiver (http or https; https only in production)'),
    'create',
  )
    .option('--secret <whsec>', 'a secret of your own (whsec_ + 64 hex characters; default: generated)')
    .option('--paused', 'create it paused (deliveries are held until `webhook resume`)')
    .action((opts: ChangeOptions & OwnerOptions & { url: string; secret?: string; paused?: boolean }, command: Command) => {
      const owner = ownerRequest(opts, command);
      return execute(command, {
        label: `registering a webhook for ${ownerLabel(opts)}`,
        run: (client) =>
          webhooks(client).CreateWebhook({
            ...owner,
            url: opts.url,
            ...changeRequest(opts),
            ...(opts.secret === undefined ? {} : { secret: opts.secret }),
            ...(opts.paused === true ? { active: false } : {}),
          }),
        fields: webhookFields,
        json: flatten,
        view: (created) => [webhookRecord(created.webhook!), ...secretViews(created)],
      });
    });

  ownerOptions(
    webhook.command('list').description("an organization's webhooks, or the platform webhooks, oldest first"),
    "the platform webhooks (every organization's events)",
  )
    .addOption(limitOption())
    .action((opts: OwnerOptions & { limit?: number }, command: Command) => {
      const owner = ownerRequest(opts, command);
      return execute(command, {
        label: `listing webhooks of ${ownerLabel(opts)}`,
        run: (client) =>
          allPages(async (cursor, limit) => {
            const page = await webhooks(client).ListWebhooks({ ...owner, cursor, limit });
            return [page.webhooks, page.next_cursor];
          }, opts.limit),
        view: (list) => [
          {
            kind: 'table',
            columns: ['ID', 'URL', 'STATUS', 'EVENTS', 'RETRIES', 'DESCRIPTION'],
            rows: list.map((w) => [w.id, w.url, webhookState(w), eventsCell(w), String(w.max_retries), w.description ?? none]),
            empty: 'no webhooks',
          },
        ],
      });
    });

  webhook
    .command('show <webhook-id>')
    .description('one webhook')
    .addOption(scopeOption())
    .action((id: string, opts: { org?: string }, command: Command) =>
      execute(command, {
        label: `looking up webhook ${id}`,
        run: (client) => webhooks(client).GetWebhook({ id, ...scoped(opts) }),
        view: (w) => [webhookRecord(w)],
      }),
    );

  changeOptions(webhook.command('update <webhook-id>').description('change some fields; the others keep their values'), 'update')
    .addOption(
      repeatableChoiceOption(
        '--reset <field>',
        'put a field back to its default: no description, every kind, any resource, no state (repeatable)',
        resettableWebhookFields,
      ),
    )
    .addOption(scopeOption())
    .action((id: string, opts: ChangeOptions & { reset?: string[]; org?: string }, command: Command) => {
      requireSomeChange(command, ['org']);
      return execute(command, {
        label: `changing webhook ${id}`,
        run: (client) => webhooks(client).UpdateWebhook({ id, ...scoped(opts), ...changeRequest(opts), reset: opts.reset ?? [] }),
        fields: webhookFields,
        view: (w) => [{ kind: 'message', text: 'Webhook updated.', tone: 'good' }, webhookRecord(w)],
      });
    });

  webhook
    .command('pause <webhook-id>')
    .description('stop sending; deliveries are still recorded, held until resumed')
    .addOption(scopeOption())
    .action((id: string, opts: { org?: string }, command: Command) =>
      execute(command, {
        label: `pausing webhook ${id}`,
        run: (client) => webhooks(client).PauseWebhook({ id, ...scoped(opts) }),
        view: (w) => [{ kind: 'message', text: `Paused ${w.url}.`, tone: 'good' }, webhookRecord(w)],
      }),
    );

  webhook
    .command('resume <webhook-id>')
    .description('send again, held deliveries first')
    .addOption(scopeOption())
    .action((id: string, opts: { org?: string }, command: Command) =>
      execute(command, {
        label: `resuming webhook ${id}`,
        run: (client) => webhooks(client).ResumeWebhook({ id, ...scoped(opts) }),
        view: (w) => [{ kind: 'message', text: `Resumed ${w.url}.`, tone: 'good' }, webhookRecord(w)],
      }),
    );

  webhook
    .command('delete <webhook-id>')
    .description('delete a webhook: nothing more is sent, pending deliveries end failed')
    .addOption(scopeOption())
    .addOption(yesOption())
    .action((id: string, opts: { org?: string }, command: Command) =>
      execute(command, {
        label: `deleting webhook ${id}`,
        confirm: async (client) => {
          const w = await webhooks(client).GetWebhook({ id, ...scoped(opts) });
          const deliveries = await allPages(async (cursor, limit) => {
            const page = await webhooks(client).ListDeliveries({ webhook_id: id, ...scoped(opts), cursor, limit });
            return [page.deliveries, page.next_cursor];
          });
          const pending = deliveries.filter((d) => d.status === 'pending').length;
          return `This deletes the webhook to ${w.url}: nothing more is sent, and ${counted(pending, 'pending delivery', 'pending deliveries')} end failed.`;
        },
        run: (client) => webhooks(client).DeleteWebhook({ id, ...scoped(opts) }),
        view: (w) => [{ kind: 'message', text: `Deleted ${w.url}.`, tone: 'good' }, webhookRecord(w)],
      }),
    );

  webhook
    .command('deliveries [webhook-id]')
    .description(
      "a webhook's deliveries, oldest first; without an id, every webhook's of --org, newest first; with their attempts (--json)",
    )
    .addOption(orgOption("the webhook's organization (id or slug); without a webhook id, the organization to list"))
    .addOption(limitOption())
    .action((id: string | undefined, opts: { org?: string; limit?: number }, command: Command) =>
      execute(command, {
        label:
          id === undefined ? `listing the deliveries of ${opts.org ?? 'an organization'}` : `listing deliveries of webhook ${id}`,
        run: (client) => {
          if (id === undefined && opts.org === undefined)
            throw new CliError('invalid_request', 'name a webhook, or an organization with --org to list all its deliveries');
          return allPages(async (cursor, limit) => {
            const page = await webhooks(client).ListDeliveries({ webhook_id: id ?? '', ...scoped(opts), cursor, limit });
            return [page.deliveries, page.next_cursor];
          }, opts.limit);
        },
        view: (list) => [
          {
            kind: 'table',
            columns: [
              'ID',
              ...(id === undefined ? ['WEBHOOK'] : []),
              'EVENT',
              'STATUS',
              'ATTEMPTS',
              'LAST CODE',
              'NEXT ATTEMPT',
              'LAST ERROR',
            ],
            rows: list.map((d) => [
              d.id,
              ...(id === undefined ? [d.webhook_id] : []),
              d.event_kind,
              deliveryStatusCell(d),
              String(d.attempt),
              d.status_code === null ? none : String(d.status_code),
              shortTime(d.next_attempt_at),
              d.error_message === null ? none : { text: d.error_message, tone: 'bad' },
            ]),
            empty: 'no deliveries',
          },
        ],
      }),
    );

  webhook
    .command('retry <webhook-id> <delivery-id>')
    .description('send a delivered or failed delivery again, now, with a fresh retry budget')
    .addOption(scopeOption())
    .action((id: string, deliveryId: string, opts: { org?: string }, command: Command) =>
      execute(command, {
        label: `queueing delivery ${deliveryId} again`,
        run: (client) => webhooks(client).RetryDelivery({ webhook_id: id, delivery_id: deliveryId, ...scoped(opts) }),
        view: (d) => [{ kind: 'message', text: `Queued ${d.id} again.`, tone: 'good' }, deliveryRecord(d)],
      }),
    );

  webhook
    .command('recover <webhook-id>')
    .description('re-queue every failed delivery created in a window')
    .requiredOption('--since <iso>', 'from this time (ISO 8601, e.g. 2025-01-02T03:04:05.000Z)')
    .option('--until <iso>', 'to this time (default: now)')
    .addOption(scopeOption())
    .action((id: string, opts: { since: string; until?: string; org?: string }, command: Command) =>
      execute(command, {
        label: `recovering deliveries of webhook ${id}`,
        run: (client) =>
          webhooks(client).RecoverDeliveries({
            webhook_id: id,
            since: opts.since,
            ...(opts.until === undefined ? {} : { until: opts.until }),
            ...scoped(opts),
          }),
        view: (r) => [{ kind: 'message', text: `Re-queued ${r.recovered} failed deliveries.`, tone: 'good' }],
      }),
    );

  webhook
    .command('test <webhook-id>')
    .description('send a signed webhook.test event to this webhook alone; its delivery follows')
    .addOption(scopeOption())
    .action((id: string, opts: { org?: string }, command: Command) =>
      execute(command, {
        label: `sending a test event to webhook ${id}`,
        run: (client) => webhooks(client).WebhookTest({ id, ...scoped(opts) }),
        view: (r) => [
          {
            kind: 'message',
            text: `Sent test event ${r.event_id}; its delivery lists under \`switchyard webhook deliveries ${r.webhook_id}\`.`,
            tone: 'good',
          },
        ],
      }),
    );

  webhook
    .command('rotate-secret <webhook-id>')
    .description('a new signing secret, shown once; the old one also signs during the grace window')
    .option('--grace-seconds <n>', 'how long the old secret keeps signing (0-604800, default 86400)', parseInteger)
    .addOption(scopeOption())
    .action((id: string, opts: { graceSeconds?: number; org?: string }, command: Command) =>
      execute(command, {
        label: `rotating the secret of webhook ${id}`,
        run: (client) =>
          webhooks(client).RotateWebhookSecret({
            id,
            ...(opts.graceSeconds === undefined ? {} : { grace_seconds: opts.graceSeconds }),
            ...scoped(opts),
          }),
        json: flatten,
        view: (rotated) => [webhookRecord(rotated.webhook!), ...secretViews(rotated)],
      }),
    );
}
