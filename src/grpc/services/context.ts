import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import type { Config } from '../../config/schema.js';
import type { Logger } from '../../log.js';
import type { LoopSet } from '../../loops/loop.js';
import type { Services } from '../../areas.js';
import type { Metrics } from '../../metrics.js';
import type { DatabaseFacts } from '../../storage/postgres/inspect.js';

/** What the daemon hands the admin API: its services and facts about itself. */
export interface AdminContext {
  config: Config;
  log: Logger;
  version: string;
  startedAt: Date;
  /** Base URL of the /v1 HTTP listener. */
  httpUrl: string;
  state: () => string;
  /** Every area's services (main.ts composes them). */
  services: Services;
  loops: LoopSet;
  metrics: Metrics;
  /** Record counts of every area, by table. */
  count: () => Promise<Record<string, number>>;
  /** The lines of a consistent backup of everything stored (storage/backup.ts). */
  backup: () => AsyncIterable<string>;
  /** PostgreSQL only: the database as doctor checks it (a connection of its own). */
  inspectDatabase?: () => Promise<DatabaseFacts>;
}

export interface ServiceContext extends AdminContext {
  /** Where the gRPC server listens; the TCP address carries the bound port. */
  listeners: () => { socketPath: string; tcpAddress: string | null };
  /** Aborts when the server starts shutting down: streaming calls end (UNAVAILABLE) instead of holding it open. */
  closing: AbortSignal;
}

/**
 * One gRPC service of the admin API. An area adds its nouns with a proto file and one module
 * exporting this, listed in services/index.ts; the server and the CLI client load what is listed.
 */
export interface AdminServiceModule {
  /** Relative to proto/, e.g. switchyard/admin/v1/teams.proto. */
  protoFile: string;
  /** Fully qualified, e.g. switchyard.admin.v1.TeamService. */
  serviceName: string;
  implement: (ctx: ServiceContext) => UntypedServiceImplementation;
}
