import { closeSync, openSync } from 'node:fs';
import path from 'node:path';

// sockaddr_un.sun_path holds 108 bytes on Linux, the terminating NUL included.
const MAX_SOCKET_PATH_BYTES = 107;

export interface SocketAddress {
  /** What to hand to listen()/connect(): the path itself, or a short alias of it. */
  path: string;
  /** Releases what the alias holds open; a no-op for a short path. */
  release(): void;
}

/**
 * A path that reaches `socketPath` and fits in a Unix socket address. Deep data dirs (test
 * fixtures, long home directories) exceed the limit, so on Linux the directory is opened and the
 * socket named through /proc/self/fd/<fd>/, which the kernel resolves to the same file.
 */
export function socketAddress(socketPath: string): SocketAddress {
  if (Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH_BYTES) return { path: socketPath, release: () => {} };
  if (process.platform !== 'linux') {
    throw new Error(`socket path ${socketPath} is longer than ${MAX_SOCKET_PATH_BYTES} bytes; choose a shorter one`);
  }
  const fd = openSync(path.dirname(socketPath), 'r');
  let open = true;
  return {
    path: `/proc/self/fd/${fd}/${path.basename(socketPath)}`,
    release: () => {
      if (open) closeSync(fd);
      open = false;
    },
  };
}
