import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CliError } from './cli-error.js';

// A socket the caller may not reach (EACCES): the daemon's data dir is 0700 and the socket 0600,
// so only the daemon's user gets in. Saying whose they are tells the operator what to run as.

/** The login name of `uid`: from /etc/passwd, else from NSS (systemd's DynamicUser), else `uid N`. */
function userName(uid: number): string {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (id === String(uid) && name !== undefined && name !== '') return name;
    }
  } catch {
    // no /etc/passwd (a container without one): NSS may still know, and the number says whose it is
  }
  const getent = spawnSync('getent', ['passwd', String(uid)], { encoding: 'utf8', timeout: 2_000 });
  const name = getent.status === 0 ? getent.stdout.split(':')[0] : '';
  return name !== '' ? name : `uid ${uid}`;
}

/**
 * What stands in the way: the socket itself when it can be seen (its mode refused the connection),
 * else the nearest directory above it that can be seen, which is the one that refused entry.
 */
function blocker(socketPath: string): { file: string; uid: number } | undefined {
  for (let file = socketPath; ; file = path.dirname(file)) {
    try {
      return { file, uid: statSync(file).uid };
    } catch {
      if (path.dirname(file) === file) return undefined;
    }
  }
}

export function permissionDenied(socketPath: string): CliError {
  const found = blocker(socketPath);
  if (found === undefined) return new CliError('forbidden', `permission denied on ${socketPath}`);
  const user = userName(found.uid);
  const what = found.file === socketPath ? 'it' : found.file;
  const sudo = user === 'root' ? 'sudo' : `sudo -u ${user}`;
  const hint = user.startsWith('uid ') ? `run as that user` : `run as ${user} (e.g. ${sudo} switchyard ...)`;
  return new CliError('forbidden', `permission denied on ${socketPath}: ${what} belongs to ${user}; ${hint}`, {
    path: found.file,
    owner: user,
  });
}
