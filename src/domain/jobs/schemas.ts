import { z } from 'zod';
import { artifactSchema } from '../assets/schemas.js';
import { executeBody, modality, tier } from '../providers/schemas.js';
import { idSchema as id, pageQuery, timestampSchema as timestamp } from '../schemas.js';
import { MAX_JSON_BYTES } from '../workflows/schemas.js';
import { jobStatuses } from './types.js';

// Request and record schemas of jobs (contract 12): the body is an execute body (contract 8) plus state.

const state = z
  .json()
  .refine((v) => Buffer.byteLength(JSON.stringify(v) ?? '') <= MAX_JSON_BYTES, `state at most ${MAX_JSON_BYTES} bytes as JSON`)
  .nullable();

/** POST /v1/jobs: what /v1/providers/execute takes (checked the same way), and an opaque state. */
export const createJobBody = z.intersection(executeBody, z.object({ state: state.optional() }));
export type CreateJobInput = z.infer<typeof createJobBody>;

export const jobListQuery = pageQuery.extend({ organization_id: id.optional(), status: z.enum(jobStatuses).optional() });
export type JobListQuery = z.infer<typeof jobListQuery>;

export const jobSchema = z.object({
  id,
  organization_id: id,
  status: z.enum(jobStatuses),
  modality,
  tier: tier.nullable(),
  model: z.string().nullable(),
  /**
   * What was submitted; an audio job's holds `{format, audio_asset_id, audio_bytes}` (its bytes are kept
   * as an asset of the job). Absent in lists: GET one job to see it.
   */
  input: z.record(z.string(), z.unknown()).optional(),
  params: z.record(z.string(), z.unknown()),
  state: z.unknown(),
  provider: z.string().nullable(),
  /** The provider answer's output once completed. Absent in lists: GET one job to see it. */
  output: z.record(z.string(), z.unknown()).nullable().optional(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  submitted_by: z.object({ principal_id: z.string().nullable(), api_key_id: z.string().nullable() }),
  created_at: timestamp,
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
  updated_at: timestamp,
  instance_id: z.string().nullable(),
  /** A completed job's files (an image job's images), with signed links valid an hour; else empty. */
  artifacts: z.array(artifactSchema),
});

/** GET /v1/jobs/{id}/output (contract 13). */
export const jobOutputSchema = z.object({
  job_id: id,
  status: z.enum(jobStatuses),
  output: z.record(z.string(), z.unknown()).nullable(),
  artifacts: z.array(artifactSchema),
});

/**
 * A job as shown, typed by jobSchema (docs/openapi.md): one job with its input and output; a completed
 * job's artifacts (images it made) with fresh signed links.
 */
export type JobView = Omit<z.input<typeof jobSchema>, 'input' | 'output'> &
  Required<Pick<z.input<typeof jobSchema>, 'input' | 'output'>>;
/** A job in a list: without its input and output (GET the job for them). */
export type JobListItem = Omit<z.input<typeof jobSchema>, 'input' | 'output'>;
