// Row (8) of `npm run bench`, the parent's side: the receiver runs here, and each engine's runs in
// a child process (bench/webhook-runs.ts) that it answers over IPC. See docs/benchmarks.md.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { WebhookReceiver } from './webhook-receiver.js';
import type { EngineFigures, FromChild, RunName, ToChild } from './webhook-runs.js';

export type { DeliveryFigures, EngineFigures } from './webhook-runs.js';

const runNames: readonly RunName[] = ['one-hook', 'ten-hooks', 'steady'];
/** A child that has not exited this long after its answer is killed. */
const EXIT_GRACE_MS = 10_000;

export interface WebhookEngine {
  label: string;
  /** A run's daemon environment: its own storage (a data dir, a database), SERVICE_WEBHOOK_ALLOW_PRIVATE=1. */
  env: (run: RunName) => Promise<Record<string, string>>;
}

/** One engine's runs in a child process with the daemon's own flags; resolves once the child has exited. */
async function runChild(
  engine: WebhookEngine,
  receiver: WebhookReceiver,
  progress: (message: string) => void,
): Promise<EngineFigures> {
  const envs = Object.fromEntries(
    await Promise.all(runNames.map(async (run) => [run, await engine.env(run)] as const)),
  ) as Record<RunName, Record<string, string>>;
  const child = fork(new URL('./webhook-runs.js', import.meta.url), [], {
    // BENCH_CPU_PROF=DIR writes each engine child's CPU profile there (node --cpu-prof), to read where a delivery's time goes.
    execArgv: [
      '--max-semi-space-size=2',
      ...(process.env.BENCH_CPU_PROF === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF]),
    ],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  try {
    const figures = await new Promise<EngineFigures>((resolve, reject) => {
      child.on('message', (message: FromChild) => {
        if (message.type === 'take') child.send({ type: 'arrivals', arrivals: receiver.take() } satisfies ToChild);
        else if (message.type === 'progress') progress(message.message);
        else if (message.type === 'result') resolve(message.figures);
        else reject(new Error(`${engine.label}: ${message.error}`));
      });
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`${engine.label}: the webhook child exited (${code}) without a result`)));
      child.send({ type: 'start', spec: { label: engine.label, receiverUrl: receiver.base, envs } } satisfies ToChild);
    });
    return figures;
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
  }
}

/** Row (8): each engine in turn, one child at a time, all delivering to one receiver (closed at the end). */
export async function measureWebhookDelivery(
  engines: WebhookEngine[],
  progress: (message: string) => void,
): Promise<Map<string, EngineFigures>> {
  const receiver = await WebhookReceiver.start();
  const figures = new Map<string, EngineFigures>();
  try {
    for (const engine of engines) figures.set(engine.label, await runChild(engine, receiver, progress));
  } finally {
    await receiver.close();
  }
  return figures;
}
