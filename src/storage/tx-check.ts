// A development check, on in the tests (SWITCHYARD_CHECK_TX=1, set by .taprc): a read through a
// collection or `readMeta` while a transaction's function runs must go through that transaction
// (`tx.read`), and a transaction may not start inside another. Off in production: the check needs
// an AsyncLocalStorage, which makes node track every promise (229 -> 219 us of CPU per webhook
// delivery on PostgreSQL when it went, docs/benchmarks.md), and code that passes the check in the
// tests does not need it there.
import { AsyncLocalStorage } from 'node:async_hooks';

/** The transaction whose function runs here, while it is open (work it started may outlive it). */
interface Scope {
  open: boolean;
}

const running = process.env.SWITCHYARD_CHECK_TX === '1' ? new AsyncLocalStorage<Scope | undefined>() : undefined;

function inOpenTx(): boolean {
  return running?.getStore()?.open === true;
}

/** Throws when a transaction starts while another one's function runs (before it waits for a lock). */
export function checkNotNested(): void {
  if (inOpenTx()) throw new TypeError('a transaction was started inside another one: pass the outer transaction down instead');
}

/**
 * Runs a transaction's function, checked while the transaction is open: work it starts and does not
 * wait for (a timer, a woken loop's tick) keeps the context but runs after the scope is closed.
 */
export async function runChecked<R>(fn: () => Promise<R>): Promise<R> {
  if (running === undefined) return fn();
  const scope: Scope = { open: true };
  try {
    return await running.run(scope, fn);
  } finally {
    scope.open = false;
  }
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
  if (!inOpenTx()) return;
  throw new TypeError(`${what} while a transaction runs: read through the transaction (tx.read) instead`);
}
