import type { DaemonServiceHandlers } from '../generated/switchyard/admin/v1/DaemonService.js';
import { serverStream, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

/** Bytes per streamed backup message, about. */
const BACKUP_CHUNK = 64 * 1024;

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
    Backup: serverStream(ctx.log, ctx.closing, async (_req, { send, signal }) => {
      // Lines gathered into chunks of about 64 KiB: far fewer messages than lines.
      let pending: string[] = [];
      let size = 0;
      for await (const line of ctx.backup()) {
        if (signal.aborted) return;
        pending.push(line);
        size += line.length;
        if (size >= BACKUP_CHUNK) {
          await send({ data: Buffer.from(pending.join('')) });
          pending = [];
          size = 0;
        }
      }
      if (pending.length > 0) await send({ data: Buffer.from(pending.join('')) });
    }),
  };
}

export const daemonService: AdminServiceModule = {
  protoFile: 'switchyard/admin/v1/daemon.proto',
  serviceName: 'switchyard.admin.v1.DaemonService',
  implement,
};
