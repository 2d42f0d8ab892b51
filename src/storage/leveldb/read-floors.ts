// Where the live keys of an index range begin, so that a read does not step over the deletions before
// them each time.
//
// LevelDB deletes by writing a tombstone, and until a compaction drops it every iterator that starts
// below it steps over it. An index used as a queue gathers a run of tombstones at its front: a
// delivery is put in `queue/due` when it is created and deleted once it is sent, so after 20,000
// deliveries every read of what is due (the sender's passes read three such ranges) began by stepping
// over thousands of them, 1.5 to 2.5 ms of CPU for two reads where a fresh database took 0.3 ms.
//
// A floor says, for a read's lower bound `gt`, that no live key lies strictly between `gt` and the
// floor; the next read from the same `gt` starts at the floor. This process is the only writer
// (LevelDB's lock), so floors are kept exact here: a put between `gt` and a floor lowers the floor to
// it before its batch is written. A read that sets a floor may not have seen every put (its iterator
// reads a snapshot), so the puts of batches written while it ran, or still being written when it
// began, cap the floor it sets.
import { setBounded } from '../../bounded-map.js';
import type { KeyRange } from '../engine.js';

/** Floors kept per sublevel at most (one per repeated lower bound: a queue, a webhook's due range). */
const FLOORS_PER_SUBLEVEL = 256;

/**
 * A read under way from `gt`: the floor it started at (if any), and the lowest key put above `gt`
 * since it began (or being written then).
 */
export interface FloorWatch<S> {
  readonly sub: S;
  readonly gt: string;
  readonly from: string | undefined;
  lowestPut: string | undefined;
}

/** Put keys of one batch, by sublevel. */
export type BatchPuts<S> = Map<S, string[]>;

export class ReadFloors<S> {
  private readonly floors = new Map<S, Map<string, string>>();
  private readonly watches = new Map<S, Set<FloorWatch<S>>>();
  private readonly writing = new Set<BatchPuts<S>>();

  /**
   * A read of `range` is about to begin: the range to read instead (from the floor of its lower bound,
   * when one is known), and the watch to end it with. Reverse reads and reads without a lower bound
   * are left as they are (undefined).
   */
  begin(sub: S, range: KeyRange): { range: KeyRange & { gte?: string }; watch: FloorWatch<S> } | undefined {
    const { gt } = range;
    if (range.reverse === true || gt === undefined) return undefined;
    const floor = this.floors.get(sub)?.get(gt);
    const watch: FloorWatch<S> = { sub, gt, from: floor, lowestPut: undefined };
    for (const puts of this.writing) for (const key of puts.get(sub) ?? []) lower(watch, key);
    let watches = this.watches.get(sub);
    if (watches === undefined) this.watches.set(sub, (watches = new Set()));
    watches.add(watch);
    if (floor === undefined) return { range, watch };
    const { gt: _, ...rest } = range;
    return { range: { ...rest, gte: floor }, watch };
  }

  /**
   * The read ended: `first` is the first key it found, or undefined when it found none below `lt`.
   * Nothing live lay before either when its snapshot was taken (nor before the floor it started at,
   * which may lie past a lower `lt`); the puts it may have missed cap that.
   */
  end(watch: FloorWatch<S>, first: string | undefined, lt: string | undefined): void {
    this.abandon(watch);
    let floor = first ?? (lt !== undefined && watch.from !== undefined && watch.from > lt ? watch.from : lt);
    if (floor === undefined) return;
    if (watch.lowestPut !== undefined && watch.lowestPut < floor) floor = watch.lowestPut;
    if (floor <= watch.gt) return;
    let floors = this.floors.get(watch.sub);
    if (floors === undefined) this.floors.set(watch.sub, (floors = new Map<string, string>()));
    setBounded(floors, watch.gt, floor, FLOORS_PER_SUBLEVEL);
  }

  /** The read failed: it stops watching, and sets no floor. */
  abandon(watch: FloorWatch<S>): void {
    this.watches.get(watch.sub)?.delete(watch);
  }

  /**
   * A batch is about to be written: each put lowers the floors above it and is seen by the reads
   * under way (and by those that begin before `written`).
   */
  writingBatch(puts: BatchPuts<S>): void {
    for (const [sub, keys] of puts) {
      const floors = this.floors.get(sub);
      const watches = this.watches.get(sub);
      if (floors === undefined && watches === undefined) continue;
      for (const key of keys) {
        if (floors !== undefined) for (const [gt, floor] of floors) if (key > gt && key < floor) floors.set(gt, key);
        if (watches !== undefined) for (const watch of watches) lower(watch, key);
      }
    }
    this.writing.add(puts);
  }

  /** The batch is written (or failed): reads that begin from now on see its puts in their snapshot. */
  written(puts: BatchPuts<S>): void {
    this.writing.delete(puts);
  }

  /** Forgets every floor (data written around the writer: a restore). */
  clear(): void {
    this.floors.clear();
  }

  /** How many floors a sublevel holds (tests). */
  size(sub: S): number {
    return this.floors.get(sub)?.size ?? 0;
  }
}

function lower<S>(watch: FloorWatch<S>, key: string): void {
  if (key > watch.gt && (watch.lowestPut === undefined || key < watch.lowestPut)) watch.lowestPut = key;
}
