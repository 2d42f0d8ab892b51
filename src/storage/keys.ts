import { randomUUID } from 'node:crypto';
import { monotonicFactory } from 'ulid';

const SEP = '\x00';
const nextUlid = monotonicFactory();

/** Resource ids are UUID v4. */
export function newId(): string {
  return randomUUID();
}

/** Time-sortable id (ULID, monotonic within a millisecond): lexical order is creation order. */
export function newSortableId(prefix = ''): string {
  return prefix + nextUlid();
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

export function nowIso(date = new Date()): string {
  return date.toISOString();
}
