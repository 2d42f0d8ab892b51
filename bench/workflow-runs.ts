// Row (12) of `npm run bench`: 1,000 two-node workflow runs on the echo provider, in-process on
// LevelDB. Throughput: every run submitted at once (the organization's bound raised to 64), runs per
// second from the first submission to the last completion. Overhead: runs one at a time, each
// submitted and awaited (its `workflow.run.completed`), against the same two provider calls made
// straight through the provider layer (ProviderService.executeFor): the added time per node is what
// the queue, the executor and their transactions and events cost. See docs/benchmarks.md.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config/load.js';
import { operator } from '../src/domain/identity/caller.js';
import { startDaemon, type Daemon } from '../src/main.js';

const RUNS = 1000;
/** Runs one at a time for the overhead (and as many direct call pairs). */
const SEQUENTIAL = 200;
const WARMUP = 50;
const BOUND = 64;

export interface WorkflowFigures {
  runs: number;
  seconds: number;
  runsPerSecond: number;
  /** Mean time of one run, submitted and awaited alone (ms). */
  runMs: number;
  /** Mean time of its two provider calls made straight (ms). */
  directMs: number;
  /** (runMs - directMs) / 2: what the workflow machinery adds per node (ms). */
  addedPerNodeMs: number;
}

const nodes = [
  {
    key: 'draft',
    kind: 'provider' as const,
    modality: 'text' as const,
    model: 'echo',
    input: { prompt: 'about {{input.topic}}' },
  },
  {
    key: 'final',
    kind: 'provider' as const,
    modality: 'text' as const,
    model: 'echo',
    input: { prompt: '{{nodes.draft.output.text}}' },
  },
];

export async function measureWorkflowRuns(progress: (line: string) => void): Promise<WorkflowFigures> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'switchyard-bench-runs-'));
  let daemon: Daemon | undefined;
  try {
    daemon = await startDaemon(
      loadConfig({ env: { SERVICE_DATA_DIR: dir, SERVICE_HTTP_ADDR: '127.0.0.1:0', SERVICE_LOG_LEVEL: 'silent' } }),
    );
    const { services } = daemon;
    const { organization: org } = await services.organizations.createOrganization(operator, { slug: 'bench-runs' });
    await services.settings.updateSettings(operator, org.id, { max_concurrent_runs: BOUND });
    await services.workflows.createWorkflow(operator, { organization_id: org.id, name: 'pair', nodes });
    const completed = new Map<string, () => void>();
    daemon.eventLog.subscribe((event) => {
      if (event.kind === 'workflow.run.completed' && event.run_id !== null) completed.get(event.run_id)?.();
    });
    const submit = async (n: number): Promise<{ done: Promise<void> }> => {
      const run = await services.workflows.submitRun(operator, 'pair', {
        organization_id: org.id,
        input: { topic: `t${n}` },
        priority: 0,
      });
      return { done: new Promise<void>((resolve) => completed.set(run.id, resolve)) };
    };
    const one = async (n: number) => {
      await (
        await submit(n)
      ).done;
    };
    for (let i = 0; i < WARMUP; i++) await one(i);

    progress(`(12) ${RUNS} two-node runs at once`);
    const started = performance.now();
    const ends = await Promise.all(Array.from({ length: RUNS }, (_, n) => submit(n)));
    await Promise.all(ends.map((e) => e.done));
    const seconds = (performance.now() - started) / 1000;

    progress(`(12) ${SEQUENTIAL} runs one at a time, and as many direct call pairs`);
    let t0 = performance.now();
    for (let i = 0; i < SEQUENTIAL; i++) await one(i);
    const runMs = (performance.now() - t0) / SEQUENTIAL;
    const payer = { organizationId: org.id, principalId: null, apiKeyId: null };
    const signal = new AbortController().signal;
    const call = (prompt: string) =>
      services.providers.executeFor(payer, { modality: 'text', model: 'echo', input: { prompt } }, signal);
    for (let i = 0; i < WARMUP; i++) await call(`about t${i}`);
    t0 = performance.now();
    for (let i = 0; i < SEQUENTIAL; i++) {
      const first = await call(`about t${i}`);
      await call((first.output as { text: string }).text);
    }
    const directMs = (performance.now() - t0) / SEQUENTIAL;
    return {
      runs: RUNS,
      seconds,
      runsPerSecond: RUNS / seconds,
      runMs,
      directMs,
      addedPerNodeMs: (runMs - directMs) / 2,
    };
  } finally {
    await daemon?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
