// Spec 2.9 (domain event) and 6.1 (the catalog of kinds).

export const eventKinds = [
  'workflow.run.created',
  'workflow.run.queued',
  'workflow.run.promoted',
  'workflow.run.started',
  'workflow.run.completed',
  'workflow.run.failed',
  'workflow.run.cancelled',
  'workflow.run.waiting',
  'workflow.run.paused',
  'workflow.node.started',
  'workflow.node.completed',
  'workflow.node.failed',
  'workflow.node.progress',
  'job.created',
  'job.started',
  'job.completed',
  'job.failed',
  'workflow.schedule.triggered',
  'workflow.schedule.skipped',
  'workflow.schedule.failed',
  'webhook.delivery.exhausted',
  'webhook.test',
  'organization.created',
  'invitation.created',
  'invitation.accepted',
  'invitation.revoked',
  'member.added',
  'member.removed',
  'member.role_changed',
  'portal.session.created',
] as const;

export type EventKind = (typeof eventKinds)[number];

export interface DomainEvent {
  id: string;
  kind: EventKind;
  organization_id: string;
  workflow_id: string | null;
  run_id: string | null;
  node_key: string | null;
  job_id: string | null;
  payload: Record<string, unknown>;
  timestamp: string;
}

export interface EventDraft {
  kind: EventKind;
  organization_id: string;
  workflow_id?: string | null;
  run_id?: string | null;
  node_key?: string | null;
  job_id?: string | null;
  payload?: Record<string, unknown>;
}

export function isEventKind(kind: string): kind is EventKind {
  return (eventKinds as readonly string[]).includes(kind);
}
