// The one place error codes are defined. Codes are stable API; messages may change.
// Each code maps to an HTTP status and a gRPC status (numeric, so this file needs no grpc import).

const GrpcStatus = {
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

const errorTable = {
  invalid_json: { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT },
  invalid_request: { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT },
  invalid_token: { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT },
  unauthenticated: { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  forbidden: { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  insufficient_scope: { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  not_found: { http: 404, grpc: GrpcStatus.NOT_FOUND },
  method_not_allowed: { http: 405, grpc: GrpcStatus.INVALID_ARGUMENT },
  conflict: { http: 409, grpc: GrpcStatus.ALREADY_EXISTS },
  invalid_state: { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  already_accepted: { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  expired: { http: 410, grpc: GrpcStatus.FAILED_PRECONDITION },
  revoked: { http: 410, grpc: GrpcStatus.FAILED_PRECONDITION },
  payload_too_large: { http: 413, grpc: GrpcStatus.INVALID_ARGUMENT },
  unsupported_media_type: { http: 415, grpc: GrpcStatus.INVALID_ARGUMENT },
  validation_failed: { http: 422, grpc: GrpcStatus.INVALID_ARGUMENT },
  rate_limited: { http: 429, grpc: GrpcStatus.RESOURCE_EXHAUSTED },
  internal: { http: 500, grpc: GrpcStatus.INTERNAL },
  upstream_error: { http: 502, grpc: GrpcStatus.UNAVAILABLE },
  no_provider: { http: 503, grpc: GrpcStatus.UNAVAILABLE },
  unavailable: { http: 503, grpc: GrpcStatus.UNAVAILABLE },
  upstream_timeout: { http: 504, grpc: GrpcStatus.DEADLINE_EXCEEDED },
} as const satisfies Record<string, { http: number; grpc: number }>;

export type ErrorCode = keyof typeof errorTable;

interface AppErrorOptions {
  details?: Record<string, unknown>;
  /** Seconds, sent as Retry-After (HTTP) for rate_limited and unavailable answers. */
  retryAfterSeconds?: number;
  /** A short label for metrics and logs (e.g. why credentials were refused); never sent to clients. */
  reason?: string;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly reason: string | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.reason = options.reason;
  }

  get httpStatus(): number {
    return errorTable[this.code].http;
  }

  get grpcStatus(): number {
    return errorTable[this.code].grpc;
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/** The public shape of an error, for HTTP bodies, gRPC details and CLI output. */
/** An error as answers describe it: its code, message and details. */
export interface ErrorDescription {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export function describeError(err: unknown): ErrorDescription {
  if (isAppError(err)) {
    return err.details === undefined
      ? { code: err.code, message: err.message }
      : { code: err.code, message: err.message, details: err.details };
  }
  return { code: 'internal', message: 'internal error' };
}

export function notFound(what: string): AppError {
  return new AppError('not_found', `${what} not found`);
}

/** 422 with `details.fields` naming every failing field and its reason. */
export function validationFailed(fields: Record<string, string>, message = 'request validation failed'): AppError {
  return new AppError('validation_failed', message, { details: { fields } });
}

/**
 * 422 for a cap reached: `details.fields` names the field with its reason, and `details.limit` the cap
 * (an organization setting or a server limit) with its `max`, so that a client can tell which it hit.
 */
export function limitReached(limit: string, max: number, field: string, reason: string, message: string): AppError {
  return new AppError('validation_failed', message, { details: { fields: { [field]: reason }, limit, max } });
}

/** `details.fields` from schema issues: the first reason for each failing field (`root` names the whole input). */
export function fieldReasons(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  root = '(body)',
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[issue.path.length === 0 ? root : issue.path.map(String).join('.')] ??= issue.message;
  return fields;
}
