import { randomFillSync, randomUUID } from 'node:crypto';
import { decodeTime, encodeTime, incrementBase32, monotonicFactory, ulid } from 'ulid';

/** Separates the parts of a composite key (and of an index key: value, sort, id). */
export const SEP = '\x00';

// ulid's own generator asks the system for one random byte per character (16 calls an id, 3 % of a
// busy daemon's CPU); this one draws the same CSPRNG bytes from a pool refilled 4 KiB at a time.
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
function randomFraction(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++] / 256;
}
const nextUlid = monotonicFactory(randomFraction);

/** Resource ids are UUID v4. */
export function newId(): string {
  return randomUUID();
}

/** Time-sortable id (ULID, monotonic within a millisecond): lexical order is creation order. */
export function newSortableId(prefix = ''): string {
  return prefix + nextUlid();
}

/** The last id sortableIdAfter made (no prefix) and its time: the next append's `last` is usually that id. */
let lastUlid = '';
let lastMs = 0;

/**
 * The next id of an append-ordered table (`prefix` + ULID): greater than `last` (the table's last id)
 * whatever the clock says, and time-sortable when the clock moves forward. Engines call it at commit,
 * in commit order, so id order is commit order. An append of many rows passes each the id made just
 * before, whose time is known here (ulid's decodeTime costs a microsecond).
 */
export function sortableIdAfter(prefix: string, last: string | undefined, now = Date.now()): string {
  const previous = last?.startsWith(prefix) === true ? last.slice(prefix.length) : undefined;
  const previousMs = previous === undefined ? undefined : previous === lastUlid ? lastMs : decodeTime(previous);
  if (previous === undefined || previousMs! < now) {
    lastUlid = ulid(now, randomFraction);
    lastMs = now;
  } else {
    // Same millisecond (or a clock that went back): the previous time, random part plus one.
    lastUlid = previous.slice(0, 10) + incrementBase32(previous.slice(10));
    lastMs = previousMs!;
  }
  return prefix + lastUlid;
}

/**
 * The least time-sortable id made at `ms` or later: ids below it were made earlier, so a time window
 * over such ids is a range between two bounds.
 */
export function sortableIdAt(prefix: string, ms: number): string {
  return prefix + encodeTime(Math.max(0, Math.min(ms, 2 ** 48 - 1)), 10);
}

/** Joins parts of a composite key; a part may not contain the separator. */
export function compositeKey(...parts: string[]): string {
  for (const p of parts) {
    if (p.includes(SEP)) throw new TypeError('key part contains the separator');
  }
  return parts.join(SEP);
}

/** Range options selecting every composite key that starts with `prefix` as whole parts. */
export function prefixRange(...prefix: string[]): { gt: string; lt: string } {
  const base = compositeKey(...prefix);
  return { gt: base + SEP, lt: base + '\x01' };
}

export function lastPart(key: string): string {
  return key.slice(key.lastIndexOf(SEP) + 1);
}

export function encodeCursor(key: string): string {
  return Buffer.from(key, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): string {
  return Buffer.from(cursor, 'base64url').toString('utf8');
}

/** The last ISO text made and its millisecond: a busy daemon asks for one millisecond's many times. */
let isoMs = NaN;
let isoText = '';

/** `ms` (epoch) as ISO 8601 text, as Date's toISOString writes it (which costs half a microsecond). */
export function isoAt(ms: number): string {
  if (ms !== isoMs) {
    isoText = new Date(ms).toISOString();
    isoMs = ms;
  }
  return isoText;
}

export function nowIso(date?: Date): string {
  return date === undefined ? isoAt(Date.now()) : date.toISOString();
}
