import { z } from 'zod';
import { artifactSchema } from '../assets/schemas.js';
import { modality, paramsSchema, tier } from '../providers/schemas.js';
import { idSchema as id, jsonValue, pageQuery, timestampSchema as timestamp } from '../schemas.js';
import { cronProblem, isTimeZone } from './cron.js';
import { DEFAULT_PRIORITY, MAX_PRIORITY, MIN_PRIORITY, nodeKinds, nodeStatuses, overlapPolicies, runStatuses } from './types.js';

// Request and record schemas of workflows and runs (contract 12): HTTP and gRPC input, types and
// OpenAPI from one place. The graph rules (needs, cycles, templates) are definition.ts's.

export const MAX_NODES = 100;
/** A run's input and state, and a wait node's input, as JSON: at most this many bytes each. */
export const MAX_JSON_BYTES = 256 * 1024;

export const workflowName = z
  .string()
  .min(1, 'must not be empty')
  .max(100, 'at most 100 characters')
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'lowercase letters, digits, ".", "_" and "-", starting with a letter or digit')
  .refine((name) => name !== 'run' && name !== 'runs', 'run and runs are reserved (they are paths under /v1/workflows)');
export const nodeKey = z
  .string()
  .min(1, 'must not be empty')
  .max(64, 'at most 64 characters')
  .regex(/^[a-z][a-z0-9_]*$/, 'lowercase letters, digits and "_", starting with a letter');

const boundedJson = (what: string) =>
  jsonValue.refine(
    (v) => Buffer.byteLength(JSON.stringify(v) ?? '') <= MAX_JSON_BYTES,
    `${what} at most ${MAX_JSON_BYTES} bytes as JSON`,
  );
const jsonObject = (what: string) =>
  z
    .record(z.string(), jsonValue)
    .refine((v) => Buffer.byteLength(JSON.stringify(v)) <= MAX_JSON_BYTES, `${what} at most ${MAX_JSON_BYTES} bytes as JSON`);

export const nodeBody = z
  .object({
    key: nodeKey,
    kind: z.enum(nodeKinds),
    modality: modality.optional(),
    tier: tier.optional(),
    model: z.string().min(1).max(200).optional(),
    input: z.record(z.string(), jsonValue).optional(),
    params: paramsSchema.omit({ stream: true }).optional(),
    needs: z.array(nodeKey).max(MAX_NODES).optional(),
  })
  .strict();
export type NodeBody = z.infer<typeof nodeBody>;

/** Schedules of one definition at most. */
export const MAX_SCHEDULES = 50;

/** A schedule as a registration or POST /v1/workflows/{name}/schedules gives it (contract 12). */
export const scheduleBody = z
  .object({
    cron: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(200, 'at most 200 characters')
      .superRefine((value, ctx) => {
        const problem = cronProblem(value);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `not a cron expression: ${problem}` });
      }),
    timezone: z
      .string()
      .min(1, 'must not be empty')
      .max(100, 'at most 100 characters')
      .refine(isTimeZone, 'not a time zone: use an IANA name such as Europe/Paris, or UTC')
      .default('UTC'),
    input: jsonObject('input').default({}),
    state: boundedJson('state').nullable().optional(),
    overlap: z.enum(overlapPolicies).default('skip'),
  })
  .strict();
export type ScheduleBody = z.infer<typeof scheduleBody>;

export const createWorkflowBody = z
  .object({
    /** For credentials other than an API key (a key acts in its own organization). */
    organization_id: id.optional(),
    name: workflowName,
    nodes: z.array(nodeBody).min(1, 'must hold a node').max(MAX_NODES, `at most ${MAX_NODES} nodes`),
    /** Given: the definition's schedules become these (docs/workflows.md, "Schedules"); absent: kept. */
    schedules: z.array(scheduleBody).max(MAX_SCHEDULES, `at most ${MAX_SCHEDULES} schedules`).optional(),
  })
  .strict();
export type CreateWorkflowInput = z.infer<typeof createWorkflowBody>;

/** Reads name their organization with `?organization_id=` unless the credential is an API key. */
export const orgQuery = z.object({ organization_id: id.optional() });
export const orgPageQuery = pageQuery.extend({ organization_id: id.optional() });
export const runListQuery = orgPageQuery.extend({
  workflow: workflowName.optional(),
  status: z.enum(runStatuses).optional(),
});
export type RunListQuery = z.infer<typeof runListQuery>;

export const runQuery = z.object({ name: workflowName });
export const submitRunBody = z
  .object({
    organization_id: id.optional(),
    input: jsonObject('input').default({}),
    state: boundedJson('state').nullable().optional(),
    priority: z
      .number()
      .int('must be an integer')
      .min(MIN_PRIORITY, `must be at least ${MIN_PRIORITY}`)
      .max(MAX_PRIORITY, `must be at most ${MAX_PRIORITY}`)
      .default(DEFAULT_PRIORITY),
  })
  .strict();
export type SubmitRunInput = z.infer<typeof submitRunBody>;

export const runInputBody = z.object({ node_key: nodeKey, input: jsonObject('input') }).strict();
export type RunInputBody = z.infer<typeof runInputBody>;

export const nodeSchema = z.object({
  key: z.string(),
  kind: z.enum(nodeKinds),
  modality: modality.nullable(),
  tier: tier.nullable(),
  model: z.string().nullable(),
  input: z.record(z.string(), z.unknown()),
  params: z.record(z.string(), z.unknown()),
  needs: z.array(z.string()),
});

export const workflowSchema = z.object({
  id,
  organization_id: id,
  name: z.string(),
  version: z.number().int(),
  nodes: z.array(nodeSchema),
  created_at: timestamp,
  updated_at: timestamp,
});

const runError = z.object({ code: z.string(), message: z.string() });
export const nodeStateSchema = z.object({
  status: z.enum(nodeStatuses),
  provider: z.string().nullable(),
  output: z.record(z.string(), z.unknown()).nullable(),
  error: runError.nullable(),
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
});

export const runSchema = z.object({
  id,
  organization_id: id,
  workflow_id: id,
  workflow_name: z.string(),
  version: z.number().int(),
  status: z.enum(runStatuses),
  input: z.record(z.string(), z.unknown()),
  state: z.unknown(),
  priority: z.number().int(),
  nodes: z.array(nodeSchema),
  node_states: z.record(z.string(), nodeStateSchema),
  output: z.record(z.string(), z.unknown()),
  error: runError.nullable(),
  submitted_by: z.object({ principal_id: z.string().nullable(), api_key_id: z.string().nullable() }),
  schedule_id: z.string().nullable(),
  created_at: timestamp,
  queued_at: timestamp.nullable(),
  promoted_at: timestamp.nullable(),
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
  updated_at: timestamp,
  /** While waiting for input: when the run fails `expired` (organization setting run_wait_timeout_seconds). */
  wait_expires_at: timestamp.nullable(),
  instance_id: z.string().nullable(),
});

export const runOutputSchema = z.object({
  run_id: id,
  status: z.enum(runStatuses),
  output: z.record(z.string(), z.unknown()),
  artifacts: z.array(artifactSchema),
});

/** POST /v1/workflows/{name}/schedules. */
export const createScheduleBody = scheduleBody.extend({ organization_id: id.optional() }).strict();
export type CreateScheduleInput = z.infer<typeof createScheduleBody>;

export const scheduleSchema = z.object({
  id,
  organization_id: id,
  workflow_id: id,
  workflow_name: z.string(),
  cron: z.string(),
  timezone: z.string(),
  input: z.record(z.string(), z.unknown()),
  state: z.unknown(),
  overlap: z.enum(overlapPolicies),
  created_by: z.object({ principal_id: z.string().nullable(), api_key_id: z.string().nullable() }),
  next_run_at: timestamp.nullable(),
  last_run_id: id.nullable(),
  last_triggered_at: timestamp.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});

/** What clients see, typed by the response schemas (docs/openapi.md, "Answers typed by their schemas"). */
export type WorkflowView = z.input<typeof workflowSchema>;
export type RunView = z.input<typeof runSchema>;
export type ScheduleView = z.input<typeof scheduleSchema>;
