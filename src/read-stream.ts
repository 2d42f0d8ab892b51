import type { Readable } from 'node:stream';

/** What readUpTo read: the chunks within the limit, and the chunk that would have passed it. */
export interface ReadUpTo {
  chunks: Buffer[];
  size: number;
  /** The chunk that would have taken the total past the limit; the stream is left unread after it. */
  over?: Buffer;
}

/**
 * Reads `stream` to its end, or until a chunk would take it past `limit` bytes: then it stops
 * listening and answers that chunk as `over`, and the caller decides (drain the rest, or drop the
 * connection). Events rather than `for await`: a stream's async iterator cost every call a
 * generator, its promises and an end-of-stream watcher (bench row 10). A stream that fails or
 * closes before its end rejects, as the iterator did. Request bodies (http/body.ts) and upstream
 * answers (providers/upstream.ts) are read with it.
 */
export function readUpTo(stream: Readable, limit: number): Promise<ReadUpTo> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      if (size + chunk.length > limit) {
        done();
        resolve({ chunks, size, over: chunk });
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    };
    const onEnd = (): void => {
      done();
      resolve({ chunks, size });
    };
    const onError = (err: Error): void => {
      done();
      reject(err);
    };
    const onClose = (): void => {
      done();
      reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    };
    if (stream.readableEnded) return onEnd();
    if (stream.destroyed) return onClose();
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}
