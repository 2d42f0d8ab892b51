// Issue 36 item 5: handlers and view functions are typed by their response schemas, so an answer that
// lacks a field its schema has, or has one it lacks, fails `npm run typecheck`. The @ts-expect-error
// lines are the proof: were the types loose, tsc would fail on them as unused. The HTTP tests check
// every answer at run time against /openapi.json (test/helpers.ts, checkAnswer).
import t from 'tap';
import { z } from 'zod';
import type { DeliveryView, deliverySchema, WebhookView, webhookSchema } from '../src/domain/webhooks/schemas.js';
import { viewDelivery, type viewWebhook } from '../src/domain/webhooks/service.js';
import { exactly } from '../src/domain/schemas.js';
import type { RunView, ScheduleView } from '../src/domain/workflows/schemas.js';
import type { viewOfRun } from '../src/domain/workflows/service.js';
import type { viewOfSchedule } from '../src/domain/workflows/schedules.js';
import { defineRoute, Reply, type RouteAnswer } from '../src/http/route.js';

const answer = z.object({ id: z.string(), count: z.number() });
type Answer = RouteAnswer<typeof answer>;
const base = { method: 'GET', path: '/t', summary: 't', tag: 't', response: answer } as const;

/** true when A and B are the same type (neither wider). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

t.test('a handler answers what its response schema describes, as data or in a Reply', async (t) => {
  const answers: Answer[] = [
    { id: 'a', count: 1 },
    Reply.json(201, { id: 'a', count: 1 }),
    Reply.redirect('/elsewhere'),
    Reply.head(),
    // @ts-expect-error a field the schema has is missing
    { id: 'a' },
    // @ts-expect-error a field the schema lacks
    { id: 'a', count: 1, extra: true },
    // @ts-expect-error a field of the wrong type, in a Reply
    Reply.json(200, { id: 'a', count: '1' }),
  ];
  const pages: RouteAnswer<z.ZodArray<typeof answer>>[] = [
    Reply.page({ items: [{ id: 'a', count: 1 }], nextCursor: null }),
    // @ts-expect-error an item lacks a field
    Reply.page({ items: [{ id: 'a' }], nextCursor: null }),
  ];
  const routes = [
    defineRoute({ ...base, handler: async () => ({ id: 'a', count: 1 }) }),
    // @ts-expect-error defineRoute types its handler by `response`
    defineRoute({ ...base, handler: async () => ({ id: 'a' }) }),
    defineRoute({ ...base, response: undefined, handler: () => 'anything without a schema' }),
  ];
  t.equal(answers.length + pages.length + routes.length, 12);
});

t.test('viewWebhook and viewDelivery answer their schemas exactly', async (t) => {
  const delivery: Same<ReturnType<typeof viewDelivery>, z.input<typeof deliverySchema>> = true;
  const webhook: Same<
    Omit<ReturnType<typeof viewWebhook>, 'organization_id'>,
    Omit<z.input<typeof webhookSchema>, 'organization_id'>
  > = true;
  const views: [Same<DeliveryView, ReturnType<typeof viewDelivery>>, Same<WebhookView, ReturnType<typeof viewWebhook>>] = [
    true,
    true,
  ];
  // @ts-expect-error a view without the schema's `attempts` is not a DeliveryView
  const short: DeliveryView = { ...viewDelivery(sampleDelivery()), attempts: undefined };
  t.ok(delivery && webhook && views.every(Boolean) && short !== undefined);
});

function sampleDelivery(): Parameters<typeof viewDelivery>[0] {
  const at = '2031-01-01T00:00:00.000Z';
  return {
    id: 'dlv_01HZZZZZZZZZZZZZZZZZZZZZZZ',
    webhook_id: 'w',
    organization_id: 'o',
    webhook_organization_id: 'o',
    event_id: 'e',
    event_kind: 'webhook.test',
    status: 'pending',
    attempt: 0,
    budget_from: 0,
    status_code: null,
    error_message: null,
    attempts: [],
    next_attempt_at: at,
    held: false,
    lease_owner: null,
    lease_until: null,
    created_at: at,
    updated_at: at,
  };
}

t.test('exactly: a view spread from a record keeps no key its schema lacks, and lacks none it has', async (t) => {
  const view = exactly<{ id: string }>();
  const record = { id: 'a', secret_hash: 'x' };
  const { secret_hash: _hidden, ...shown } = record;
  t.same(view(shown), { id: 'a' });
  // @ts-expect-error a record field the schema does not list (a leak)
  view(record);
  // @ts-expect-error a field the schema has is missing
  view({});
  const workflows: [Same<RunView, ReturnType<typeof viewOfRun>>, Same<ScheduleView, ReturnType<typeof viewOfSchedule>>] = [
    true,
    true,
  ];
  t.ok(workflows.every(Boolean));
});
