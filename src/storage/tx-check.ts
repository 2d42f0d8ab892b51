// A development check, on in the tests (SWITCHYARD_CHECK_TX=1, set by .taprc): a read through a
// collection or `readMeta` while a transaction's function runs must go through that transaction
// (`tx.read`), and a transaction may not start inside another. Off in production: the check needs
// an AsyncLocalStorage, which makes node track every promise (about a fifth of a webhook delivery's
// CPU, docs/benchmarks.md), and code that passes the check in the tests does not need it there.
import { AsyncLocalStorage } from 'node:async_hooks';

const running = process.env.SWITCHYARD_CHECK_TX === '1' ? new AsyncLocalStorage<true | undefined>() : undefined;

/** Throws when a transaction starts while another one's function runs (before it waits for a lock). */
export function checkNotNested(): void {
  if (running?.getStore() !== undefined)
    throw new TypeError('a transaction was started inside another one: pass the outer transaction down instead');
}

/** Runs a transaction's function, checked. */
export function runChecked<R>(fn: () => Promise<R>): Promise<R> {
  return running === undefined ? fn() : running.run(true, fn);
}

/**
 * Runs `fn`, whose reads deliberately go through the shared reader while a transaction runs: what
 * every request reads that way anyway (permission checks, whose cached records every daemon drops
 * before a change's caller hears of it). The check's way of telling such a read from a forgotten `tx`.
 */
export function outsideTx<R>(fn: () => Promise<R>): Promise<R> {
  return running === undefined ? fn() : running.run(undefined, fn);
}

/** Throws when called while a transaction's function runs (a read that bypasses it). */
export function checkOutsideTx(what: string): void {
  if (running?.getStore() === undefined) return;
  throw new TypeError(`${what} while a transaction runs: read through the transaction (tx.read) instead`);
}
