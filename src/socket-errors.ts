// What a failed outbound connection is called, in words a person reads on a delivery record or a
// provider's health: the same words whichever client (webhook sender, provider adapters) failed.

/** The error code of a failed request: undici puts the socket's on `cause`. */
function codeOf(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = e?.code ?? e?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** `connection refused`, `connection reset before an answer`, `host not found`, else the message (with its code). */
export function describeSocketError(err: unknown): string {
  const code = codeOf(err);
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset before an answer';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  const message = (err as { message?: unknown } | null)?.message;
  const text = typeof message === 'string' ? message : String(err);
  return code === undefined ? text : `${text} (${code})`;
}
