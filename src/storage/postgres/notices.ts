// What daemons sharing one database tell each other: after a commit, a notice on CHANNEL names the
// cached records it changed and the topics it woke; each peer drops those records and, when the
// notice asks, acknowledges on ACK_CHANNEL, so the committing daemon answers its caller only once no
// peer can serve the old record. engine.ts sends and listens; this module is the notices' shape,
// their size bound, and the bookkeeping of acknowledgements awaited.
import type { Logger } from '../../log.js';

/** The channel every daemon listens on: cache invalidations and loop wake-ups. */
export const CHANNEL = 'switchyard_changes';
/** Where a daemon says it has applied another's cache invalidation. */
export const ACK_CHANNEL = 'switchyard_acks';
/** The application name of every daemon's notification connection: how a daemon counts its peers. */
export const LISTENER_NAME = 'switchyard-listen';
/** A commit that changed cached records waits at most this long for every peer to drop them. */
export const ACK_TIMEOUT_MS = 2_000;
/** pg_notify payloads must stay under 8000 bytes; a larger change set drops whole table caches. */
const MAX_PAYLOAD = 7_000;

/** What a commit changed in cached tables, and the topics it woke: sent to every daemon. */
export interface Notice {
  /** The daemon that committed (it applied the notice already). */
  i: string;
  /** Set when cached records changed: the notice every peer acknowledges once it has dropped them. */
  n?: string;
  /** table -> ids and unique keys ([index, key]) to drop; '*' drops the whole table. */
  c: Record<string, { ids: string[]; keys: [string, string][] } | '*'>;
  w: string[];
}

/**
 * The notice as a payload under pg_notify's bound. Too large, it says less, in place (what the
 * committing daemon applies is what its peers get): whole tables instead of records, then each
 * family of topics whole (`family:*`) instead of one topic per run the commit touched.
 */
export function noticePayload(notice: Notice): string {
  let payload = JSON.stringify(notice);
  if (payload.length > MAX_PAYLOAD) {
    for (const table of Object.keys(notice.c)) notice.c[table] = '*';
    payload = JSON.stringify(notice);
  }
  if (payload.length > MAX_PAYLOAD) {
    notice.w = [...new Set(notice.w.map((topic) => topic.replace(/:.*$/s, ':*')))];
    payload = JSON.stringify(notice);
  }
  return payload;
}

/** A commit's wait for its peers' acknowledgements. */
export interface AckWait {
  /** Resolves once every peer counted has acknowledged, or at ACK_TIMEOUT_MS (logged). */
  settled: Promise<void>;
  /** Stops waiting (the commit failed). */
  cancel(): void;
}

/** Acknowledgements awaited, by notice id. */
export class AckWaits {
  private readonly waiting = new Map<string, { acked: Set<string>; expected: number; done: () => void }>();

  constructor(
    private readonly log: Logger,
    private readonly timeoutMs = ACK_TIMEOUT_MS,
  ) {}

  /** Waits for `expected` peers to acknowledge `notice`. */
  expect(notice: string, expected: number): AckWait {
    let timer: NodeJS.Timeout | undefined;
    const settled = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        const waiting = this.waiting.get(notice);
        this.waiting.delete(notice);
        this.log.warn(
          { expected, acknowledged: waiting?.acked.size ?? 0 },
          'a peer daemon did not acknowledge a cache change in time',
        );
        resolve();
      }, this.timeoutMs);
      timer.unref();
      this.waiting.set(notice, {
        acked: new Set(),
        expected,
        done: () => {
          clearTimeout(timer);
          this.waiting.delete(notice);
          resolve();
        },
      });
    });
    return {
      settled,
      cancel: () => {
        clearTimeout(timer);
        this.waiting.delete(notice);
      },
    };
  }

  /** An acknowledgement's payload (`{n, i}`) arrived; anything unreadable or unawaited is ignored. */
  acknowledged(payload: string): void {
    let ack: { n?: string; i?: string };
    try {
      ack = JSON.parse(payload) as { n?: string; i?: string };
    } catch {
      return;
    }
    const waiting = ack.n === undefined ? undefined : this.waiting.get(ack.n);
    if (waiting === undefined || ack.i === undefined) return;
    waiting.acked.add(ack.i);
    if (waiting.acked.size >= waiting.expected) waiting.done();
  }

  /** How many commits are waiting. */
  get size(): number {
    return this.waiting.size;
  }
}
