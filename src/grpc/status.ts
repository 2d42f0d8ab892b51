import { Metadata, status, type StatusObject } from '@grpc/grpc-js';
import { describeError, isAppError } from '../errors.js';
import { ERROR_CODE_KEY, ERROR_DETAILS_KEY } from './error-keys.js';

// An error travels as a gRPC status: the code from errors.ts's table, and the same error code text
// as HTTP, twice: at the head of the details text ("conflict: ...", what grpcurl prints) and in
// trailing metadata for programs (error-keys.ts). Details of the error (e.g. validation fields) ride
// as JSON.

/** The status a failed call ends with; anything but an AppError is INTERNAL with no detail. */
export function toStatus(err: unknown): StatusObject {
  const described = describeError(err);
  const metadata = new Metadata();
  metadata.set(ERROR_CODE_KEY, described.code);
  if (described.details !== undefined) metadata.set(ERROR_DETAILS_KEY, JSON.stringify(described.details));
  const code = isAppError(err) ? err.grpcStatus : status.INTERNAL;
  return { code, details: `${described.code}: ${described.message}`, metadata };
}
