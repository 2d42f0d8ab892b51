import { describeConfig } from '../../config/describe.js';
import { inspectDataDir } from '../../storage/data-dir.js';
import type { DaemonServiceHandlers } from '../generated/switchyard/admin/v1/DaemonService.js';
import { serverStream, toMessage, unary } from '../handler.js';
import type { AdminServiceModule, ServiceContext } from './context.js';

/** Bytes per streamed backup message, about. */
const BACKUP_CHUNK = 64 * 1024;

/** `switchyard doctor` warns of pending invitations that expire within this. */
const EXPIRING_WINDOW_MS = 24 * 3600 * 1000;

/** What status and doctor both show of how the daemon reaches people: mail, links, JWT. */
function reachFacts({ config, services, httpUrl }: ServiceContext) {
  return {
    email_transport: services.outbox.transportName,
    public_url: config.publicUrl ?? httpUrl,
    public_url_set: config.publicUrl !== undefined,
    jwt_enabled: config.jwtSecret !== undefined,
  };
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

function unwrap<T>(s: Settled<T>): T {
  if (s.ok) return s.value;
  throw s.error;
}

function implement(ctx: ServiceContext): DaemonServiceHandlers {
  const { services, config } = ctx;
  return {
    GetStatus: unary(ctx.log, async () => {
      const [counts, outbox, pending] = await Promise.all([
        ctx.count(),
        services.outbox.outboxFigures(),
        services.invitations.countPendingInvitations(),
      ]);
      const { socketPath, tcpAddress } = ctx.listeners();
      return {
        version: ctx.version,
        state: ctx.state(),
        env: ctx.config.env,
        started_at: ctx.startedAt.toISOString(),
        uptime_seconds: (Date.now() - ctx.startedAt.getTime()) / 1000,
        data_dir: ctx.config.dataDir,
        storage_engine: ctx.config.databaseUrl === undefined ? 'leveldb' : 'postgres',
        http_url: ctx.httpUrl,
        grpc_socket: socketPath,
        ...(tcpAddress === null ? {} : { grpc_address: tcpAddress }),
        loops: ctx.loops.status().map(toMessage),
        counts,
        ...reachFacts(ctx),
        pending_invitations: pending,
        outbox: outbox.byStatus,
      };
    }),
    GetConfig: unary(ctx.log, () => Promise.resolve({ settings: describeConfig(config).map(toMessage) })),
    Doctor: unary(ctx.log, async () => {
      const [dir, outboxRead, expiringRead, database] = await Promise.all([
        inspectDataDir(config.dataDir),
        settle(services.outbox.outboxFigures()),
        settle(services.invitations.countPendingExpiringWithin(EXPIRING_WINDOW_MS)),
        ctx.inspectDatabase?.(),
      ]);
      // A database doctor cannot reach is the finding: the figures read from it are left at 0 (doctor
      // does not judge them then). Otherwise a failed read is an error of the call, as anywhere.
      const unreachable = database?.reachable === false;
      const outbox = unreachable && !outboxRead.ok ? { byStatus: {} as Record<string, number> } : unwrap(outboxRead);
      const expiring = unreachable && !expiringRead.ok ? 0 : unwrap(expiringRead);
      return {
        env: config.env,
        now: new Date().toISOString(),
        data_dir: config.dataDir,
        data_dir_mode: dir.mode,
        data_dir_uid: dir.uid,
        daemon_uid: process.getuid?.() ?? 0,
        data_dir_allow_shared: config.dataDirAllowShared,
        data_dir_free_bytes: dir.freeBytes,
        data_dir_total_bytes: dir.totalBytes,
        ...reachFacts(ctx),
        held_mail: outbox.byStatus.held ?? 0,
        failed_mail: outbox.byStatus.failed ?? 0,
        invitations_expiring: expiring,
        expiring_window_seconds: EXPIRING_WINDOW_MS / 1000,
        email_from: config.emailFrom,
        storage_engine: config.databaseUrl === undefined ? 'leveldb' : 'postgres',
        ...(database === undefined ? {} : { database }),
      };
    }),
    Backup: serverStream(ctx.log, ctx.closing, async (_req, { send, signal }) => {
      // Sealed (SERVICE_BACKUP_KEY): the header line, then frames of about 64 KiB, a message each.
      if (config.backupKey !== undefined) {
        const { sealBackup } = await import('../../storage/backup-seal.js');
        for await (const data of sealBackup(ctx.backup(), config.backupKey)) {
          if (signal.aborted) return;
          await send({ data });
        }
        return;
      }
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
