/** What a command prints on failure: the daemon's error code and message, or the client's own. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
