import type { Page } from '../../storage/collection.js';
import type { Tx } from '../../storage/port.js';
import type { DomainEvent } from '../events/types.js';
import type { Webhook } from './types.js';

/** Reads the event log past an event id ('' for its start), in append order; through `tx` when given. */
export type ReadEvents = (after: string, limit: number, tx?: Tx) => Promise<Page<DomainEvent>>;

/** Events read per read of the log. */
const PAGE = 200;

/**
 * What the fan-out knows of the events past its cursor: the first of them, kept in memory (at most
 * `keep`), and which organization and kind each one is, counted over every event read so far (kept or
 * not). The fan-out may wait for a slot only when no event it would hold back is owed to a webhook that
 * could take its delivery now; these counts answer that without reading the events again, and the kept
 * events spare the next steps their reads. Events never change once appended and the log is gap-free
 * in commit order, so what was read stays true.
 */
export class FanoutBacklog {
  /** The cursor the kept events follow; undefined: nothing known (the next align() starts afresh). */
  private after: string | undefined;
  private kept: DomainEvent[] = [];
  /** The first kept event not yet fanned out. */
  private start = 0;
  /** The last event counted: every event from the cursor up to it is in `counts`. */
  private readTo = '';
  /** organization -> kind -> events past the cursor, up to `readTo`. */
  private readonly counts = new Map<string, Map<string, number>>();

  constructor(
    private readonly read: ReadEvents,
    private readonly keep: number,
  ) {}

  /** How many events are kept past the cursor. */
  get size(): number {
    return this.kept.length - this.start;
  }

  /**
   * The cursor is at `cursor` now. Events up to it that were kept are fanned out (by this daemon, or by
   * another on PostgreSQL) and leave the counts; a cursor past what is kept starts everything afresh.
   */
  align(cursor: string): void {
    if (this.after === cursor) return;
    const n = this.after === undefined ? -1 : this.indexOf(cursor);
    if (n < 0) {
      this.after = cursor;
      this.kept = [];
      this.start = 0;
      this.readTo = cursor;
      this.counts.clear();
      return;
    }
    for (let i = this.start; i <= n; i++) this.count(this.kept[i], -1);
    this.start = n + 1;
    this.after = cursor;
    // The array is cut once most of it is behind the cursor (not on every step).
    if (this.start > 1024 && this.start * 2 > this.kept.length) {
      this.kept = this.kept.slice(this.start);
      this.start = 0;
    }
  }

  /**
   * The `i`th event past the cursor (0: the first; `i` below `keep`), read from the log if it is not
   * kept yet (through `tx`, the fan-out step's); undefined when the log has no such event.
   */
  async at(i: number, tx?: Tx): Promise<DomainEvent | undefined> {
    if (this.start + i >= this.kept.length && i < this.keep) {
      const last = this.size > 0 ? this.kept[this.kept.length - 1].id : this.after!;
      const page = await this.read(last, Math.min(PAGE, this.keep - this.size), tx);
      for (const event of page.items) this.take(event);
    }
    return this.kept[this.start + i];
  }

  /**
   * Reads until `n` events past the cursor are kept (fewer when the log ends first or `keep` is
   * reached); answers how many are kept, at most `n`. A fan-out step takes its events this way before
   * it reads any webhook, so every event it fans out was committed before the webhooks it is matched
   * against were read.
   */
  async fill(n: number, tx?: Tx): Promise<number> {
    const want = Math.min(n, this.keep);
    while (this.size < want) {
      const before = this.size;
      await this.at(this.size, tx);
      if (this.size === before) break;
    }
    return Math.min(this.size, n);
  }

  /** The `i`th kept event past the cursor (below what fill() answered), without a read. */
  peek(i: number): DomainEvent | undefined {
    return i < this.size ? this.kept[this.start + i] : undefined;
  }

  /**
   * Counts every event committed past what was read, at most `max` of them; answers whether it reached
   * the log's end (every event past the cursor is counted). Events are kept while they follow the kept
   * ones and there is room. Reads through `tx` when given.
   */
  async readToEnd(max: number, tx?: Tx): Promise<boolean> {
    for (let budget = max; budget > 0;) {
      const page = await this.read(this.readTo, Math.min(PAGE, budget), tx);
      for (const event of page.items) this.take(event);
      budget -= page.items.length;
      if (page.nextCursor === null) return true;
    }
    return false;
  }

  /**
   * A live webhook that `waits` says is not waiting for a slot, owed one of the counted events from the
   * `from`th on (the ones before it are being fanned out now); undefined if there is none. Known by organization and kind
   * only, so a webhook whose event filter takes one of those kinds counts (its resource filter may
   * refuse the event: this errs towards not waiting, which costs speed, never a delay).
   */
  async owedElsewhere(
    from: number,
    hooksOf: (org: string) => Promise<Webhook[]>,
    waits: (webhook: Webhook) => boolean,
  ): Promise<string | undefined> {
    const counts = new Map([...this.counts].map(([org, kinds]) => [org, new Map(kinds)]));
    for (let i = this.start; i < this.start + from && i < this.kept.length; i++) bump(counts, this.kept[i], -1);
    for (const [org, kinds] of counts) {
      if (kinds.size === 0) continue;
      for (const webhook of await hooksOf(org)) {
        if (!webhook.active || waits(webhook)) continue;
        if (webhook.event_filter.length === 0 || webhook.event_filter.some((kind) => kinds.has(kind))) return webhook.id;
      }
    }
    return undefined;
  }

  /**
   * An event read from the log, in order: counted if it is past `readTo`, and kept when it follows the
   * last kept one (or the cursor) and there is room. Events counted but not kept leave a gap that only
   * align() closes: nothing past a gap is kept.
   */
  private take(event: DomainEvent): void {
    const last = this.size > 0 ? this.kept[this.kept.length - 1].id : this.after!;
    const follows = event.id <= this.readTo || last === this.readTo;
    if (follows && event.id > last && this.size < this.keep) this.kept.push(event);
    if (event.id > this.readTo) {
      this.count(event, 1);
      this.readTo = event.id;
    }
  }

  private count(event: DomainEvent, by: number): void {
    bump(this.counts, event, by);
  }

  /** Where `id` is among the kept events not yet fanned out; -1 if it is not. */
  private indexOf(id: string): number {
    let lo = this.start;
    let hi = this.kept.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.kept[mid].id;
      if (at === id) return mid;
      if (at < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}

function bump(counts: Map<string, Map<string, number>>, event: DomainEvent, by: number): void {
  let kinds = counts.get(event.organization_id);
  if (kinds === undefined) counts.set(event.organization_id, (kinds = new Map<string, number>()));
  const n = (kinds.get(event.kind) ?? 0) + by;
  if (n <= 0) kinds.delete(event.kind);
  else kinds.set(event.kind, n);
  if (kinds.size === 0) counts.delete(event.organization_id);
}
