/** How often the clock looks at the event loop while it runs (ms). */
const TICK_MS = 20;
/**
 * A turn of the event loop that comes later than this after the last one is a stall (ms): past it,
 * the time counts as time the process was not looking. A busy loop turns far more often than this.
 */
const STALL_MS = 50;

/**
 * A clock that stops while this process's event loop stalls (a loaded machine that does not schedule
 * it, a long synchronous task, a collection): the time a receiver had to answer in, as this daemon
 * could see it. An answer that arrives during a stall is only read after it, and a timer that falls
 * due during one runs before that read (timers come first in a turn of the loop); counted in wall
 * time, a one-second stall would make every receiver look silent for a second. The sender's slots
 * judge silence (the fan-out's wait, quick answers) and attempts their timeouts by it.
 *
 * It only ticks while someone holds it (attempts on the wire): otherwise it runs as the wall clock,
 * less the stalls counted so far. Milliseconds, on the scale of Date.now(); use `wallAt` to turn one
 * of its times back into wall time for a timer.
 */
export class AttentionClock {
  /** Stalled time counted so far (ms). */
  private stalled = 0;
  /** When the loop last turned, as the ticks saw it (wall ms). */
  private lastTurn = 0;
  private timer: NodeJS.Timeout | undefined;
  private holders = 0;

  constructor(private readonly wall: () => number = Date.now) {}

  /** Now, with stalls taken out (ms). */
  now(): number {
    const wall = this.wall();
    return wall - this.stalled - this.stalling(wall);
  }

  /** The wall time (epoch ms) of `at`, a time of this clock, as seen now: for a timer. */
  wallAt(at: number): number {
    return this.wall() + (at - this.now());
  }

  /** Stalled time counted so far (ms; metrics and tests). */
  get stalledMs(): number {
    return this.stalled + this.stalling(this.wall());
  }

  /** Something needs the clock to tick (an attempt on the wire) until it lets go. */
  hold(): void {
    if (this.holders++ > 0) return;
    this.lastTurn = this.wall();
    this.timer = setInterval(() => this.turn(), TICK_MS);
    this.timer.unref();
  }

  letGo(): void {
    if (this.holders === 0 || --this.holders > 0) return;
    this.turn();
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A turn of the loop: the time since the last one past STALL_MS was a stall. */
  private turn(): void {
    const wall = this.wall();
    this.stalled += this.stalling(wall);
    this.lastTurn = wall;
  }

  /** The stall going on now: the loop has not turned since `lastTurn` (wall ms). */
  private stalling(wall: number): number {
    return this.timer === undefined ? 0 : Math.max(0, wall - this.lastTurn - STALL_MS);
  }
}
