// Workflows, runs and their nodes (spec 2.9-2.10, 3.5, 4.6; contract 12). docs/workflows.md.

import type { Modality, Tier } from '../providers/types.js';

export const nodeKinds = ['provider', 'wait'] as const;
export type NodeKind = (typeof nodeKinds)[number];

/** One node of a definition, as stored: `needs` resolved (the node before, when it named none). */
export interface WorkflowNode {
  key: string;
  kind: NodeKind;
  modality: Modality | null;
  tier: Tier | null;
  model: string | null;
  /** An object whose strings are templates over the run input and the outputs of needed nodes. */
  input: Record<string, unknown>;
  params: Record<string, unknown>;
  needs: string[];
}

/** A definition: one record per name in an organization; registering the name again makes a new version. */
export interface WorkflowDefinition {
  id: string;
  organization_id: string;
  name: string;
  version: number;
  nodes: WorkflowNode[];
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export const runStatuses = ['queued', 'running', 'waiting', 'paused', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof runStatuses)[number];
export const terminalRunStatuses: readonly RunStatus[] = ['completed', 'failed', 'cancelled'];

export const nodeStatuses = ['pending', 'running', 'waiting', 'completed', 'failed', 'cancelled'] as const;
export type NodeStatus = (typeof nodeStatuses)[number];

export interface RunError {
  code: string;
  message: string;
}

export interface NodeState {
  status: NodeStatus;
  /** The provider that answered (or the last one tried). */
  provider: string | null;
  output: Record<string, unknown> | null;
  error: RunError | null;
  started_at: string | null;
  finished_at: string | null;
}

/** Who submitted a run: its provider calls are made for them (usage records name them). */
export interface Submitter {
  principal_id: string | null;
  api_key_id: string | null;
}

/** Priorities: higher runs first; promote moves a run ahead of every run not promoted. */
export const MIN_PRIORITY = 0;
export const MAX_PRIORITY = 100;
export const DEFAULT_PRIORITY = 0;

export interface WorkflowRun {
  id: string;
  organization_id: string;
  workflow_id: string;
  workflow_name: string;
  version: number;
  status: RunStatus;
  input: Record<string, unknown>;
  /** Opaque JSON given at submission, echoed in terminal run events (spec 6.3). */
  state: unknown;
  priority: number;
  /** The definition's nodes as they were when the run was submitted (a new version changes no run). */
  nodes: WorkflowNode[];
  node_states: Record<string, NodeState>;
  /** Every completed node's output, by node key. */
  output: Record<string, unknown>;
  error: RunError | null;
  submitted_by: Submitter;
  /** The schedule that created the run, if any. */
  schedule_id: string | null;
  created_at: string;
  /** When it (last) entered the queue: its place among runs of equal priority. */
  queued_at: string | null;
  promoted_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
  /**
   * While waiting for input: when it fails `expired`, fixed as it began to wait (its organization's
   * run_wait_timeout_seconds, at most SERVICE_RUN_WAIT_TIMEOUT_MS). Null otherwise; absent on runs
   * older daemons stored that never waited since.
   */
  wait_expires_at?: string | null;
  /** The daemon instance running it now (or that ran it last). */
  instance_id: string | null;
  /** While running: the lease of `instance_id`; another daemon takes the run over once it ends. */
  lease_until: string | null;
}

/** What a schedule does when its previous run has not ended at the next fire time. */
export const overlapPolicies = ['skip', 'allow'] as const;
export type OverlapPolicy = (typeof overlapPolicies)[number];

/** A definition's schedule (contract 12): a cron expression in a time zone, and the run it submits. */
export interface WorkflowSchedule {
  id: string;
  organization_id: string;
  workflow_id: string;
  workflow_name: string;
  /** Five fields, or six with seconds first (cron.ts). */
  cron: string;
  /** IANA name; UTC unless given. */
  timezone: string;
  input: Record<string, unknown>;
  state: unknown;
  overlap: OverlapPolicy;
  /** Who created it: its runs are submitted for them (their provider usage). */
  created_by: Submitter;
  /** The next fire time; null once the expression never fires again. */
  next_run_at: string | null;
  /** The run the schedule created last (overlap `skip` waits for it to end). */
  last_run_id: string | null;
  last_triggered_at: string | null;
  /**
   * The daemon that claimed the schedule's due fire, until it is recorded (or the lease ends). Null
   * with `lease_until` set: the fire failed and is retried at `lease_until` (a backoff, schedules.ts).
   */
  lease_owner: string | null;
  lease_until: string | null;
  /** Fires of `next_run_at` that failed in a row (unexpected errors, rolled back); absent or 0 once one is recorded. */
  fire_failures?: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}
