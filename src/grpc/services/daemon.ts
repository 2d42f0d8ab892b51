import type { DaemonServiceHandlers } from '../generated/switchyard/admin/v1/DaemonService.js';
import { toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

function implement(ctx: ServiceContext): DaemonServiceHandlers {
  return {
    GetStatus: unary(ctx.log, async () => {
      const counts = await ctx.count();
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
