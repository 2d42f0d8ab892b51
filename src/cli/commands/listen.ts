import { performance } from 'node:perf_hooks';
import { InvalidArgumentError, type Command } from 'commander';
import { deadline } from '../../deadline.js';
import { isWellFormedSecret, SECRET_FORMAT } from '../../domain/webhooks/secret-format.js';
import { hiddenAlias, kindsOption, orgOption } from '../options.js';
import { executeStream } from '../output.js';
import { tailEvents, type Event } from './events.js';

/** A forward waits this long for the receiver's answer (the daemon's default attempt timeout). */
const FORWARD_TIMEOUT_MS = 10_000;

function parseUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    // reported below
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new InvalidArgumentError('expected an http or https URL, e.g. http://localhost:3000/webhooks');
  return url.toString();
}

function parseSecret(text: string): string {
  if (!isWellFormedSecret(text)) throw new InvalidArgumentError(`expected ${SECRET_FORMAT}`);
  return text;
}

interface Forwarded {
  event_id: string;
  event_kind: string;
  /** A fresh `dlv_` id per forward: X-Service-Delivery and webhook-id. */
  delivery_id: string;
  /** The receiver's status, when it answered. */
  status_code: number | null;
  ok: boolean;
  duration_ms: number;
  error: string | null;
}

/** Why a POST got no answer, in a few words. */
function describeFailure(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return `timed out after ${FORWARD_TIMEOUT_MS / 1000} s`;
  return e.cause?.code ?? e.cause?.message ?? e.message;
}

function forwardLine(event: Event, f: Forwarded): string {
  const outcome =
    f.status_code === null ? `failed: ${f.error}` : `${f.status_code}${f.ok ? '' : ` (${f.error})`}, ${f.duration_ms} ms`;
  return `${event.timestamp}  ${event.kind}  ${event.id}  -> ${outcome}`;
}

export function registerListen(program: Command): void {
  program
    .command('listen')
    .description("forward an organization's events to a URL, signed as real deliveries, until interrupted")
    .addOption(orgOption())
    .requiredOption('--forward-to <url>', 'where to POST each event (a local receiver under development)', parseUrl)
    .addOption(kindsOption('only these event kinds (repeatable or a,b; default: every kind)'))
    .addOption(hiddenAlias(kindsOption('old name of --kind', '--events <kinds>'), 'kind'))
    .option(
      '--secret <whsec>',
      'sign with this secret, so a receiver keeps its secret across runs (default: a new one)',
      parseSecret,
    )
    .action((opts: { org: string; forwardTo: string; kind?: string[]; secret?: string }, command: Command) =>
      executeStream(command, {
        run: async (client, print, signal) => {
          // Loaded here, not at start-up: only `listen` signs and makes ids.
          const [{ deliveryHeaders, generateSecret, standardSecret }, { ulid }] = await Promise.all([
            import('../../domain/webhooks/signing.js'),
            import('ulid'),
          ]);
          // The given secret, or one of its own: in the format and with the signatures of a real webhook's.
          const secret = opts.secret ?? generateSecret();
          const standard = standardSecret(secret);
          const kinds = opts.kind;
          const url = opts.forwardTo;
          const forward = async (event: Event): Promise<Forwarded | undefined> => {
            const body = JSON.stringify(event);
            const deliveryId = `dlv_${ulid()}`;
            const headers = deliveryHeaders({
              secrets: [secret],
              deliveryId,
              eventKind: event.kind,
              body,
              timestamp: Math.floor(Date.now() / 1000),
              attempt: 1,
            });
            const base = { event_id: event.id, event_kind: event.kind, delivery_id: deliveryId };
            const started = performance.now();
            const took = () => Math.round(performance.now() - started);
            const limit = deadline(FORWARD_TIMEOUT_MS, signal);
            try {
              const res = await fetch(url, {
                method: 'POST',
                headers,
                body,
                redirect: 'manual', // as the daemon: a redirect is a failure, never followed
                signal: limit.signal,
              });
              await res.body?.cancel();
              const ok = res.status >= 200 && res.status < 300;
              const error = ok ? null : res.status >= 300 && res.status < 400 ? 'redirect not followed' : 'not 2xx';
              return { ...base, status_code: res.status, ok, duration_ms: took(), error };
            } catch (err) {
              if (signal.aborted) return undefined; // interrupted mid-forward
              return { ...base, status_code: null, ok: false, duration_ms: took(), error: describeFailure(err) };
            } finally {
              limit.clear();
            }
          };
          const onOpen = (): void =>
            print(
              { secret, standard_secret: standard, forward_to: url },
              [
                `Signing secret: ${secret}`,
                // Only an older hex secret has another spelling for Standard Webhooks libraries.
                ...(standard === secret ? [] : [`Standard Webhooks secret: ${standard}`]),
                `Forwarding events of ${opts.org} to ${url} (Ctrl-C to stop)`,
              ].join('\n'),
            );
          const request = { organization: opts.org, ...(kinds?.length === 1 ? { kind: kinds[0] } : {}) };
          for await (const event of tailEvents(client, request, { signal, onOpen })) {
            if (kinds !== undefined && !kinds.includes(event.kind)) continue;
            const forwarded = await forward(event);
            if (forwarded !== undefined) print(forwarded, forwardLine(event, forwarded));
          }
        },
      }),
    );
}
