// Where the admin API's .proto files are and how they are read, without loading proto-loader: the
// CLI reads them through its bundled copy (src/cli/grpc-lib.ts), the daemon through proto.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from '@grpc/proto-loader';

/** The admin API's protobuf package; every service and message lives under it. */
export const ADMIN_PACKAGE = 'switchyard.admin.v1';

/**
 * How .proto files become JS objects, on the server and in the CLI alike. `npm run proto:gen`
 * passes the same options to proto-loader-gen-types, so the generated types describe these objects.
 */
const loaderOptions: Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

function findProtoRoot(): string {
  // src/grpc/ under the TypeScript loader, dist/src/grpc/ when compiled: walk up to the package.
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'proto');
    if (existsSync(path.join(candidate, 'switchyard'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('proto/ directory not found');
}

/** The include directory: proto files are named relative to it (switchyard/admin/v1/...). */
const protoRoot = findProtoRoot();

/**
 * proto-loader's options for `files` (named relative to proto/): the same objects on the server and
 * in the CLI, which loads them through its own bundled copy of proto-loader (src/cli/grpc-lib.ts).
 */
export function protoLoadOptions(extraIncludeDirs: readonly string[] = []): Options {
  return { ...loaderOptions, includeDirs: [protoRoot, ...extraIncludeDirs] };
}

/** Every proto file of the admin package (what a client may call), relative to proto/. */
export function adminProtoFiles(): string[] {
  const dir = path.join(protoRoot, ...ADMIN_PACKAGE.split('.'));
  return readdirSync(dir)
    .filter((name) => name.endsWith('.proto'))
    .sort()
    .map((name) => path.posix.join(...ADMIN_PACKAGE.split('.'), name));
}

/**
 * The admin proto file (relative to proto/) that declares `service` (e.g. DaemonService), found in
 * the files' text: a client then parses only that file and its imports, not the whole package.
 */
export function adminProtoFileOf(service: string): string | undefined {
  const declaration = new RegExp(`^service ${service}\\s*\\{`, 'm');
  return adminProtoFiles().find((file) => declaration.test(readFileSync(path.join(protoRoot, file), 'utf8')));
}
