// Jobs (contract 12): one provider call without a definition, run in the background.

import type { Artifact } from '../assets/types.js';
import type { Modality, Tier } from '../providers/types.js';
import type { RunError, Submitter } from '../workflows/types.js';

export const jobStatuses = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof jobStatuses)[number];
export const terminalJobStatuses: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

export interface Job {
  id: string;
  organization_id: string;
  status: JobStatus;
  modality: Modality;
  tier: Tier | null;
  model: string | null;
  input: Record<string, unknown>;
  params: Record<string, unknown>;
  /** Opaque JSON given at submission, echoed in the terminal job events. */
  state: unknown;
  provider: string | null;
  /** The provider answer's output (images as assets of the job). */
  output: Record<string, unknown> | null;
  error: RunError | null;
  submitted_by: Submitter;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
  /** The daemon instance running it (or that ran it). */
  instance_id: string | null;
  lease_until: string | null;
}

/** GET /v1/jobs/{id}/output (contract 13), as a run's output. */
export interface JobOutput {
  job_id: string;
  status: JobStatus;
  output: Record<string, unknown> | null;
  artifacts: Artifact[];
}
