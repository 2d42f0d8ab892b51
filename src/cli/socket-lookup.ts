import { lstatSync } from 'node:fs';
import path from 'node:path';
import { cliConfigPath, readCliConfig } from './cli-config.js';

// Where the daemon's admin socket is when --socket is not given (contract section 10). What the
// user named (SERVICE_GRPC_SOCKET, SERVICE_DATA_DIR) is used as it is; otherwise the first of the
// usual places that holds a socket, so `switchyard status` works from anywhere on a set-up machine.

/** Where the systemd unit keeps the data dir (systemd/switchyard.service). */
const SYSTEM_DATA_DIR = '/var/lib/switchyard';

export interface SocketChoice {
  socketPath: string;
  /** Every path looked at, in order, the chosen one last: what "no daemon" lists. */
  tried: string[];
}

/** Whether something may be at `file`: it exists, or it cannot be seen (EACCES: the caller is told why). */
function mayExist(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}

export function findSocket(given: string | undefined, env: NodeJS.ProcessEnv = process.env): SocketChoice {
  const named = given ?? (env.SERVICE_GRPC_SOCKET || undefined);
  if (named !== undefined) return { socketPath: path.resolve(named), tried: [path.resolve(named)] };
  if (env.SERVICE_DATA_DIR) {
    const socketPath = path.resolve(env.SERVICE_DATA_DIR, 'admin.sock');
    return { socketPath, tried: [socketPath] };
  }
  const configured = readCliConfig(cliConfigPath(env)).socket;
  const candidates = [
    ...new Set([
      ...(configured === undefined ? [] : [path.resolve(configured)]),
      path.resolve('data', 'admin.sock'),
      path.join(SYSTEM_DATA_DIR, 'admin.sock'),
    ]),
  ];
  const tried: string[] = [];
  for (const candidate of candidates) {
    tried.push(candidate);
    if (mayExist(candidate)) return { socketPath: candidate, tried };
  }
  return { socketPath: candidates[0], tried };
}
