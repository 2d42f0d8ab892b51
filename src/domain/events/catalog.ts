import { z } from 'zod';
import { roles } from '../identity/roles.js';
import { portalCapabilities } from '../portal/types.js';
import { modalities } from '../providers/types.js';
import { eventKinds, type EventKind } from './types.js';

// The event catalog (contract 13): every kind the daemon emits, with a one-line description, its
// payload's schema and an example. GET /v1/event-types, the OpenAPI document's `webhooks` and the
// catalog in docs/webhooks.md all come from here (test/event-types.test.ts keeps them together).

/** One kind of the catalog. `payload` is open: a later version may add fields, never remove them. */
export interface EventType {
  description: string;
  payload: z.ZodObject;
  example: Record<string, unknown>;
}

const error = z.object({ code: z.string(), message: z.string() }).meta({ description: 'what went wrong' });
const instanceId = z.string().nullable().meta({ description: 'the daemon instance that did it' });
const role = z.enum(roles);

const runEnd = z.object({
  state: z.unknown().meta({ description: "the run's state at its end" }),
  output_url: z.string().meta({ description: "GET this (workflows:read) for the run's output and artifacts" }),
  instance_id: instanceId,
  error: error.optional(),
});
const membership = z.object({
  membership_id: z.string(),
  principal_id: z.string(),
  role: role.meta({ description: 'the role the membership has (had, for member.removed)' }),
  team_id: z.string().nullable().meta({ description: 'the team of a team-level membership; null for the organization' }),
});
const schedule = z.object({
  schedule_id: z.string(),
  scheduled_for: z.string().meta({ description: 'the fire time the schedule was due at (ISO 8601)' }),
  instance_id: z.string(),
});
const invitation = z.object({ invitation_id: z.string(), email: z.string(), role });

const ORG = '0193b0c4-6f1a-7c3e-9d2b-5a8f1e2d3c4b';
const PRINCIPAL = '0193b0c4-7a2b-7d4f-8e3c-6b9a2f3e4d5c';
const MEMBERSHIP = '0193b0c4-8b3c-7e5a-9f4d-7cab3a4f5e6d';
const INVITATION = '0193b0c5-1c4d-7f6b-8a5e-8dbc4b5a6f7e';
const ASSET = '0193b0c6-5a8b-7c1d-8e9f-a1b2c3d4e5f6';
const INSTANCE = 'daemon-7f3a';
const PORTAL_SESSION = '0193b0c7-3e4f-7a5b-8c6d-b2c3d4e5f6a7';
const RUN_URL = 'https://switchyard.example.com/v1/workflows/runs/0193b0c6-2d5e-7a7c-9b6f-9ecd5c6b7a8f/output';

const catalog = {
  'workflow.run.created': {
    description: 'A workflow run was submitted (by a caller or a schedule).',
    payload: z.object({ priority: z.int(), version: z.int().meta({ description: 'the workflow version it runs' }) }),
    example: { priority: 5, version: 2 },
  },
  'workflow.run.queued': {
    description: 'A run entered the queue: at submission, or again after a wait node got its input.',
    payload: z.object({ priority: z.int() }),
    example: { priority: 5 },
  },
  'workflow.run.promoted': {
    description: "A queued run was moved to the front of its organization's queue.",
    payload: z.object({}),
    example: {},
  },
  'workflow.run.started': {
    description: 'A daemon took the run and started executing it.',
    payload: z.object({ instance_id: z.string() }),
    example: { instance_id: INSTANCE },
  },
  'workflow.run.completed': {
    description: 'A run finished with every node done.',
    payload: runEnd,
    example: { state: { topic: 'rivers' }, output_url: RUN_URL, instance_id: INSTANCE },
  },
  'workflow.run.failed': {
    description: 'A run ended because a node failed (or it could not go on).',
    payload: runEnd,
    example: {
      state: {},
      output_url: RUN_URL,
      instance_id: INSTANCE,
      error: { code: 'provider_unavailable', message: 'every provider for text failed' },
    },
  },
  'workflow.run.cancelled': {
    description: 'A run was cancelled before it finished.',
    payload: runEnd,
    example: { state: {}, output_url: RUN_URL, instance_id: null },
  },
  'workflow.run.waiting': {
    description: 'A run reached a wait node and waits for its input.',
    payload: z.object({ node_key: z.string() }),
    example: { node_key: 'approve' },
  },
  'workflow.run.paused': {
    description: 'A run was paused; it resumes where it stopped.',
    payload: z.object({}),
    example: {},
  },
  'workflow.node.started': {
    description: "A node of a run started (the event's node_key names it).",
    payload: z.object({ modality: z.enum(modalities) }),
    example: { modality: 'text' },
  },
  'workflow.node.completed': {
    description: "A node finished: the provider's answer, or a wait node's input.",
    payload: z.object({
      provider: z.string().optional(),
      model: z.string().nullable().optional(),
      usage: z.object({ input_tokens: z.int(), output_tokens: z.int() }).nullable().optional(),
      output: z.unknown().meta({ description: "the node's output" }),
    }),
    example: {
      provider: 'openai',
      model: 'gpt-4o-mini',
      usage: { input_tokens: 12, output_tokens: 40 },
      output: { text: 'Rivers carve their valleys over ages.' },
    },
  },
  'workflow.node.failed': {
    description: 'A node failed.',
    payload: z.object({ error }),
    example: { error: { code: 'provider_unavailable', message: 'every provider for text failed' } },
  },
  'workflow.node.progress': {
    description: 'A streaming text node has produced this many characters so far.',
    payload: z.object({ characters: z.int() }),
    example: { characters: 512 },
  },
  'job.created': {
    description: 'A job (one provider call run in the background) was submitted.',
    payload: z.object({ modality: z.enum(modalities) }),
    example: { modality: 'image' },
  },
  'job.started': {
    description: 'A daemon took the job and started it.',
    payload: z.object({ instance_id: instanceId }),
    example: { instance_id: INSTANCE },
  },
  'job.completed': {
    description: "A job finished; GET /v1/jobs/{id}/output has its output and artifacts' links.",
    payload: z.object({
      state: z.unknown(),
      instance_id: instanceId,
      provider: z.string().nullable(),
      output: z.record(z.string(), z.unknown()).nullable(),
    }),
    example: {
      state: null,
      instance_id: INSTANCE,
      provider: 'comfyui',
      output: { images: [{ asset_id: ASSET, content_type: 'image/png' }] },
    },
  },
  'job.failed': {
    description: 'A job failed.',
    payload: z.object({ state: z.unknown(), instance_id: instanceId, error: error.optional() }),
    example: { state: null, instance_id: INSTANCE, error: { code: 'provider_error', message: 'upstream answered 500' } },
  },
  'workflow.schedule.triggered': {
    description: 'A schedule fired and submitted a run.',
    payload: schedule.extend({ run_id: z.string() }),
    example: {
      schedule_id: MEMBERSHIP,
      scheduled_for: '2026-11-29T06:00:00.000Z',
      instance_id: INSTANCE,
      run_id: '0193b0c6-2d5e-7a7c-9b6f-9ecd5c6b7a8f',
    },
  },
  'workflow.schedule.skipped': {
    description: 'A schedule was due but submitted no run (a limit, or its previous run still active).',
    payload: schedule.extend({
      reason: z.enum(['previous_run_active', 'concurrency_limit', 'queue_full', 'waiting_full']),
      previous_run_id: z.string().optional(),
      running: z.int().optional(),
      max_concurrent_runs: z.int().optional(),
      max_queued_runs: z.int().optional(),
      max_waiting_runs: z.int().optional(),
    }),
    example: {
      schedule_id: MEMBERSHIP,
      scheduled_for: '2026-11-29T06:00:00.000Z',
      instance_id: INSTANCE,
      reason: 'concurrency_limit',
      running: 10,
      max_concurrent_runs: 10,
    },
  },
  'workflow.schedule.failed': {
    description: 'A schedule could not fire (its workflow was deleted, its creator lost the right).',
    payload: schedule.extend({ error }),
    example: {
      schedule_id: MEMBERSHIP,
      scheduled_for: '2026-11-29T06:00:00.000Z',
      instance_id: INSTANCE,
      error: { code: 'forbidden', message: 'the schedule creator may no longer run workflow.write' },
    },
  },
  'webhook.delivery.exhausted': {
    description: "A webhook delivery failed its last attempt (never sent to that webhook; none for a platform webhook's).",
    payload: z.object({
      webhook_id: z.string(),
      delivery_id: z.string(),
      event_id: z.string(),
      event_kind: z.string(),
      attempts: z.int(),
      status_code: z.int().nullable().meta({ description: "the last attempt's HTTP status; null when none came" }),
      error_message: z.string().nullable(),
    }),
    example: {
      webhook_id: '0193b0c7-3e6f-7b8d-8c7a-afde6d7c8b9a',
      delivery_id: '0193b0c7-4f7a-7c9e-9d8b-b0ef7e8d9cab',
      event_id: 'evt_01JDXK4Q8M3N5P7R9T1V3X5Z7B',
      event_kind: 'job.completed',
      attempts: 4,
      status_code: 503,
      error_message: 'HTTP 503',
    },
  },
  'webhook.test': {
    description: 'A test event sent by hand (POST /v1/webhooks/{id}/test, or the portal): only that webhook receives it.',
    payload: z.object({
      webhook_id: z.string().meta({ description: 'the one webhook it is delivered to' }),
      message: z.string(),
    }),
    example: { webhook_id: '0193b0c7-3e6f-7b8d-8c7a-afde6d7c8b9a', message: 'This is a test event from Switchyard.' },
  },
  'organization.created': {
    description: 'An organization was created; only platform webhooks can receive it.',
    payload: z.object({
      organization_id: z.string(),
      slug: z.string(),
      display_name: z.string(),
      owner_principal_id: z.string(),
    }),
    example: { organization_id: ORG, slug: 'acme', display_name: 'Acme Inc.', owner_principal_id: PRINCIPAL },
  },
  'invitation.created': {
    description: 'Someone was invited to the organization by email.',
    payload: invitation,
    example: { invitation_id: INVITATION, email: 'ada@example.com', role: 'member' },
  },
  'invitation.accepted': {
    description: 'An invitation was accepted: its membership exists (see also member.added).',
    payload: invitation.extend({ membership_id: z.string(), principal_id: z.string() }),
    example: {
      invitation_id: INVITATION,
      email: 'ada@example.com',
      role: 'member',
      membership_id: MEMBERSHIP,
      principal_id: PRINCIPAL,
    },
  },
  'invitation.revoked': {
    description: 'A pending invitation was revoked; its link no longer works.',
    payload: invitation,
    example: { invitation_id: INVITATION, email: 'ada@example.com', role: 'member' },
  },
  'member.added': {
    description: 'A principal became a member (organization creation, a direct add, an accepted invitation).',
    payload: membership,
    example: { membership_id: MEMBERSHIP, principal_id: PRINCIPAL, role: 'member', team_id: null },
  },
  'member.removed': {
    description: "A membership ended (a removal, or its team's deletion).",
    payload: membership,
    example: { membership_id: MEMBERSHIP, principal_id: PRINCIPAL, role: 'admin', team_id: null },
  },
  'member.role_changed': {
    description: "A membership's role changed (an update, or an invitation for a higher role accepted).",
    payload: membership.extend({ previous_role: role }),
    example: { membership_id: MEMBERSHIP, principal_id: PRINCIPAL, role: 'admin', team_id: null, previous_role: 'member' },
  },
  'portal.session.created': {
    description: 'A tenant portal link was minted for the organization (the link itself is never in the event).',
    payload: z.object({
      portal_session_id: z.string(),
      principal_id: z.string().meta({ description: 'who minted it (the first owner, when the operator did)' }),
      capabilities: z.array(z.enum(portalCapabilities)),
      expires_at: z.string().meta({ description: 'when the link and its session end (ISO 8601)' }),
    }),
    example: {
      portal_session_id: PORTAL_SESSION,
      principal_id: PRINCIPAL,
      capabilities: ['read', 'manage_webhooks'],
      expires_at: '2026-11-29T05:00:00.000Z',
    },
  },
} satisfies Record<EventKind, EventType>;

export const eventCatalog: Readonly<Record<EventKind, EventType>> = catalog;

/**
 * The payload an emitter gives for `kind`, as the catalog's schema reads it: the emitters' payload
 * types come from the schemas GET /v1/event-types serves, so the two cannot drift apart.
 */
export type EventPayload<K extends EventKind> = z.input<(typeof catalog)[K]['payload']>;

/** One kind as GET /v1/event-types and docs/webhooks.md show it. */
export interface EventTypeView {
  kind: EventKind;
  description: string;
  payload_schema: Record<string, unknown>;
  example: Record<string, unknown>;
}

/** A payload's JSON Schema (draft 2020-12, open to fields a later version adds). */
export function payloadJsonSchema(kind: EventKind): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(eventCatalog[kind].payload, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return schema;
}

let views: EventTypeView[] | undefined;

/** The whole catalog in the order of the kinds' list (computed once). */
export function listEventTypes(): EventTypeView[] {
  views ??= eventKinds.map((kind) => ({
    kind,
    description: eventCatalog[kind].description,
    payload_schema: payloadJsonSchema(kind),
    example: eventCatalog[kind].example,
  }));
  return views;
}

/** The body a webhook receives for one kind: the event as stored, its payload as the catalog says. */
export function eventEnvelopeSchema(kind: EventKind): z.ZodObject {
  return z.object({
    id: z.string().meta({ description: 'the event id (evt_...), the same on every delivery of it' }),
    kind: z.literal(kind),
    organization_id: z.string(),
    workflow_id: z.string().nullable(),
    run_id: z.string().nullable(),
    node_key: z.string().nullable(),
    job_id: z.string().nullable(),
    payload: eventCatalog[kind].payload,
    timestamp: z.string().meta({ description: 'when the event was committed (ISO 8601, UTC)' }),
  });
}
