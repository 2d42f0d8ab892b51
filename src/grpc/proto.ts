import { loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { protoLoadOptions } from './proto-files.js';

/** Loads proto files (named relative to proto/) into one package definition. */
export function loadProtos(files: readonly string[], extraIncludeDirs: readonly string[] = []): PackageDefinition {
  return loadSync([...files], protoLoadOptions(extraIncludeDirs));
}
