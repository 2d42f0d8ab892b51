// The load generator, on its own thread so that it does not share an event loop with the servers
// under test (which run on the main thread). One worker runs one measurement and reports back.
import { createHistogram, performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  connections: number;
  /** Seconds, measured. */
  duration: number;
  /** Seconds of warm-up first, not measured. */
  warmup: number;
  /** POST this JSON body instead of a GET. */
  body?: string;
  /** A fixed number of requests instead of `duration` seconds. */
  amount?: number;
}

export interface LoadResult {
  /** 2xx answers per second over the measured run. */
  rps: number;
  /** 2xx answers in the measured run. */
  ok: number;
  total: number;
  /** Answers outside 2xx, connection errors and timeouts: any of them voids the measurement. */
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Latency percentiles in milliseconds, microsecond resolution (autocannon's own are whole ms). */
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

function runOnce(
  options: autocannon.Options,
  onResponse?: (statusCode: number, responseTimeMs: number) => void,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    // The callback form returns the instance, whose 'response' events carry exact timings.
    const instance = autocannon(options, (err: Error | null, result: autocannon.Result) => (err ? reject(err) : resolve(result)));
    if (onResponse)
      instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => onResponse(statusCode, responseTimeMs));
  });
}

async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const base: autocannon.Options = {
    url: spec.url,
    headers: spec.body === undefined ? spec.headers : { ...spec.headers, 'content-type': 'application/json' },
    connections: spec.connections,
    timeout: 5,
    ...(spec.body === undefined ? {} : { method: 'POST', body: spec.body }),
  };
  if (spec.warmup > 0) await runOnce({ ...base, duration: spec.warmup });
  parentPort?.postMessage({ type: 'measuring' });

  const latencyUs = createHistogram();
  let ok = 0;
  const started = performance.now();
  const length = spec.amount === undefined ? { duration: spec.duration } : { amount: spec.amount };
  // The last answer's time, not autocannon's end: with `amount`, it ends on its next one-second tick.
  let lastAnswer = started;
  const result = await runOnce({ ...base, ...length }, (statusCode, responseTimeMs) => {
    lastAnswer = performance.now();
    if (statusCode < 200 || statusCode >= 300) return;
    ok++;
    latencyUs.record(Math.max(1, Math.round(responseTimeMs * 1000)));
  });
  const seconds = ((spec.amount === undefined ? performance.now() : lastAnswer) - started) / 1000;
  const ms = (us: number): number => us / 1000;
  return {
    rps: ok / seconds,
    ok,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    p50: ms(latencyUs.percentile(50)),
    p90: ms(latencyUs.percentile(90)),
    p99: ms(latencyUs.percentile(99)),
    max: ms(latencyUs.max),
  };
}

if (parentPort !== null) {
  const port = parentPort;
  runLoad(workerData as LoadSpec).then(
    (result) => port.postMessage({ type: 'result', result }),
    (err: unknown) => port.postMessage({ type: 'error', error: String((err as Error)?.stack ?? err) }),
  );
}
