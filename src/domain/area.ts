import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import type { Loop } from '../loops/loop.js';
import type { Metrics } from '../metrics.js';
import type { Storage } from '../storage/port.js';
import type { AuditLog } from './audit/service.js';
import type { EventLog } from './events/service.js';
import type { ResourceResolver } from './identity/permissions.js';

/** What every area is built from. */
export interface AreaBase {
  config: Config;
  storage: Storage;
  /** The domain event log: every area appends to it inside its own transactions. */
  eventLog: EventLog;
  /** The audit log: every change by a person, a key or the operator is recorded in its own transaction. */
  audit: AuditLog;
  log: Logger;
  /** Absolute base for links the daemon hands out (accept links): SERVICE_PUBLIC_URL or the HTTP listener. */
  publicUrl: () => string;
  /** Instruments the areas record into (no-ops unless SERVICE_METRICS_ADDR is set). */
  metrics: Metrics;
}

/** What an area gives the daemon. `create<Area>(deps)` returns one; main.ts composes them. */
export interface Area<S extends object> {
  /** Merged into the one services object that HTTP routes, gRPC services and loops use. */
  services: S;
  loops?: Loop[];
  /** How the area's resources map to organizations; registered with the permission engine at composition. */
  resources?: Record<string, ResourceResolver>;
  /** Record counts by table, for `switchyard status`. */
  count?: () => Promise<Record<string, number>>;
  /** Releases what the area holds (connections); called after the loops have stopped. */
  close?: () => Promise<void>;
}
