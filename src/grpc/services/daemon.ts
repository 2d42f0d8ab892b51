import type { Collection } from '../../storage/collection.js';
import type { DaemonServiceHandlers } from '../generated/switchyard/admin/v1/DaemonService.js';
import { toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

// Counting walks the table's keys (no values): fine for an operator's status call, not for a hot path.
async function countRecords(collection: Collection<object>): Promise<number> {
  let n = 0;
  for await (const _key of collection.records.keys()) n++;
  return n;
}

function implement(ctx: ServiceContext): DaemonServiceHandlers {
  const tables = Object.values(ctx.identity.store) as Collection<object>[];
  return {
    GetStatus: unary(ctx.log, async () => {
      const counts: Record<string, number> = {};
      for (const table of tables) counts[table.name] = await countRecords(table);
      const { socketPath, tcpAddress } = ctx.listeners();
      return {
        version: ctx.version,
        state: ctx.state(),
        env: ctx.config.env,
        started_at: ctx.startedAt.toISOString(),
        uptime_seconds: (Date.now() - ctx.startedAt.getTime()) / 1000,
        data_dir: ctx.config.dataDir,
        http_url: ctx.httpUrl,
        grpc_socket: socketPath,
        ...(tcpAddress === null ? {} : { grpc_address: tcpAddress }),
        loops: ctx.loops.status().map(toMessage),
        counts,
      };
    }),
  };
}

export const daemonService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/daemon.proto',
  serviceName: 'switchyard.admin.v1.DaemonService',
  implement,
};
