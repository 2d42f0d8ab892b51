import type { ServerResponse } from 'node:http';

/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

/** Opens an SSE answer. */
export function openSse(res: ServerResponse, requestId: string): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    'x-request-id': requestId,
  });
  res.flushHeaders();
}

/**
 * Opens an SSE answer and writes each event as `id: <id>`, `event: <kind>`, `data: <toData(event) as
 * JSON>`, with a heartbeat while it is quiet, until the events end or the client goes; then ends it.
 */
export async function writeEventStream<E extends { id: string; kind: string }>(
  res: ServerResponse,
  requestId: string,
  events: AsyncIterable<E>,
  toData: (event: E) => unknown = (event) => event,
): Promise<void> {
  openSse(res, requestId);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  try {
    for await (const event of events) {
      if (res.destroyed) break;
      res.write(`id: ${event.id}\nevent: ${event.kind}\ndata: ${JSON.stringify(toData(event))}\n\n`);
    }
  } finally {
    clearInterval(heartbeat);
    res.end();
  }
}
