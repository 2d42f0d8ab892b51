// The trailing metadata keys of a failed call (status.ts writes them, the CLI reads them), apart from
// status.ts so that the CLI reads them without loading grpc-js's own copy (src/cli/grpc-lib.ts).

/** The contract's error code text ("conflict", "not_found", ...). */
export const ERROR_CODE_KEY = 'error-code';
/** The error's details (e.g. validation fields), as JSON. */
export const ERROR_DETAILS_KEY = 'error-details';
