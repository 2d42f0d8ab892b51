import { deadline } from '../../deadline.js';
import { AppError, validationFailed } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { Metrics } from '../../metrics.js';
import { nowIso } from '../../storage/keys.js';
import type { Storage } from '../../storage/port.js';
import type { AuditLog } from '../audit/service.js';
import { isOperator, organizationOf, type Actor, type Caller } from '../identity/caller.js';
import type { PermissionEngine } from '../identity/permissions.js';
import { ProviderBreakers, type BreakerSettings } from './breaker.js';
import { costOf, recordOf, type ProviderRegistry, type Registered } from './registry.js';
import { lostTo, rank, type Ranking } from './router.js';
import type { ExecuteBody, ProviderSettingsInput, RouteExplanation, RouteQuery, UsageQuery, UsageRow } from './schemas.js';
import { canonicalTime } from '../schemas.js';
import { PROVIDER_SETTINGS_TOPIC, type ProviderStore } from './store.js';
import type { AdapterCall, AdapterResult, ProviderRecord, StoredProviderSettings, StreamFormat, Usage } from './types.js';
import { ModelUnavailable, UpstreamFailure } from './upstream.js';
import { summarizeUsage, type UsageRecorder } from './usage.js';

export interface Attempt {
  provider: string;
  error?: string;
}

export interface ExecuteResult extends AdapterResult {
  provider: string;
  modality: ExecuteBody['modality'];
  cost_usd: number;
  latency_ms: number;
  attempts: Attempt[];
}

/** Where a stream's frames go (the HTTP route renders them as SSE or NDJSON). */
export interface StreamSink {
  /** The first piece is ready: the answer starts now, and from here on nothing falls back. */
  open(provider: string, model: string): void;
  delta(text: string): void;
  done(summary: { provider: string; model: string; usage: Usage; attempts: Attempt[] }): void;
  fail(error: { code: string; message: string }): void;
}

export interface ProviderServiceOptions {
  /** Once the breaker opens, the provider is probed again this soon (the breaker's cooldown). */
  breakerCooldownMs: number;
  /** When a provider's recent calls open its breaker. */
  breaker: BreakerSettings;
}

/** One attempt as it goes: whether the answer started, and what the provider said it used. */
interface Progress {
  started: number;
  opened: boolean;
  model: string;
  usage: Usage;
  attempts: Attempt[];
}

/** Who a call is made for and charged to: its usage record's organization, principal and key. */
export interface Payer {
  organizationId: string;
  principalId: string | null;
  apiKeyId: string | null;
}

/** Work waiting for the first probes (probedOnce) waits at most this long. */
const FIRST_PROBE_CAP_MS = 10_000;

const NO_USAGE: Usage = Object.freeze({ input_tokens: 0, output_tokens: 0 });

/** A call the client gave up on: nothing is answered. */
export class CallCancelled extends Error {
  constructor() {
    super('cancelled by the client');
    this.name = 'CallCancelled';
  }
}

/**
 * The provider layer's rules (spec 4.4, contract 8): who may call, which provider serves, fallback
 * before the first byte, usage for every upstream call, and the operator's routing settings.
 */
export class ProviderService {
  /** Told when a failed call asks for an early probe (the health loop's wake). */
  onProbeDue: () => void = () => undefined;

  /** Each provider's recent outcomes: its breaker opens on their failure rate. */
  private readonly breakers: ProviderBreakers;

  constructor(
    private readonly storage: Storage,
    private readonly store: ProviderStore,
    private readonly registry: ProviderRegistry,
    private readonly permissions: PermissionEngine,
    private readonly usage: UsageRecorder,
    private readonly audit: AuditLog,
    private readonly metrics: Metrics,
    private readonly options: ProviderServiceOptions,
    private readonly log: Logger,
  ) {
    this.breakers = new ProviderBreakers(options.breaker);
  }

  /**
   * Resolves once every provider has been probed (its health and model list known: routing by model
   * needs them), or after `capMs`. Background work (runs, jobs) waits for it at start, so a run taken
   * over right after a restart is not routed on empty model lists.
   */
  probedOnce(capMs = FIRST_PROBE_CAP_MS): Promise<void> {
    // One wait per daemon: once over (probed, or the cap reached), later callers go on at once.
    this.firstProbes ??= (async () => {
      const until = Date.now() + capMs;
      while (this.registry.all().some((e) => e.health.checked_at === null) && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 25));
    })();
    return this.firstProbes;
  }

  private firstProbes: Promise<void> | undefined;

  /** Every registered provider (any authenticated caller). */
  listProviders(): ProviderRecord[] {
    return this.registry.all().map(recordOf);
  }

  /** A provider's own stream format (null: it answers in one piece); undefined for an unknown name. */
  nativeStreamFormat(name: string): StreamFormat | null | undefined {
    return this.registry.find(name)?.adapter.streaming;
  }

  /**
   * Re-reads the routing settings every daemon shares. A read that a change through this daemon
   * overtook (setProvider applies its record at once) is not applied: it would take the change back
   * until the next re-read. It reads again instead.
   */
  async loadSettings(): Promise<void> {
    for (;;) {
      const changesBefore = this.localChanges;
      const stored: StoredProviderSettings[] = [];
      let cursor: string | null = null;
      do {
        const page = await this.store.settings.list({ cursor, limit: 200 });
        stored.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor !== null);
      if (changesBefore !== this.localChanges) continue;
      this.registry.applySettings(stored);
      return;
    }
  }

  /** Settings changes made through this daemon (each applied at once, before any re-read sees it). */
  private localChanges = 0;
  /** The re-read under way, and whether another was asked for while it ran. */
  private rereading: Promise<void> | undefined;
  private rereadAgain = false;

  /**
   * loadSettings() for the background: a failure is logged, and the settings in memory stay. One runs
   * at a time, so an older read never lands after a newer one; a call while one runs gets one more
   * read after it (what woke it may have committed after that read began).
   */
  refreshSettings(): Promise<void> {
    if (this.rereading !== undefined) {
      this.rereadAgain = true;
      return this.rereading;
    }
    this.rereading = (async () => {
      try {
        do {
          this.rereadAgain = false;
          try {
            await this.loadSettings();
          } catch (err) {
            this.log.error({ err }, 'provider settings could not be re-read');
          }
        } while (this.rereadAgain);
      } finally {
        this.rereading = undefined;
      }
    })();
    return this.rereading;
  }

  /** `provider set` (operator): changes routing settings, persisted and applied on every daemon. */
  async setProvider(actor: Actor, name: string, input: ProviderSettingsInput): Promise<ProviderRecord> {
    if (!isOperator(actor)) throw new AppError('forbidden', "provider routing settings are the operator's");
    const entry = this.registry.find(name);
    if (entry === undefined) throw new AppError('not_found', `provider ${name} is not registered on this daemon`);
    const record = await this.storage.transaction({ locks: [`provider_settings:${name}`] }, async (tx) => {
      const before = await tx.get(this.store.settings, name);
      const next: StoredProviderSettings = { ...(before ?? { name: entry.adapter.name }), ...input, updated_at: nowIso() };
      this.audit.record(tx, actor, {
        organization_id: null,
        action: 'provider.update',
        target: { type: 'provider', id: name },
        before: before ?? { name },
        after: next,
      });
      await tx.put(this.store.settings, next);
      tx.wake(PROVIDER_SETTINGS_TOPIC);
      return next;
    });
    this.localChanges++;
    entry.settings = record;
    return recordOf(entry);
  }

  /** `provider route` (operator): the router's choice for a request of this shape, and why each other lost. */
  explainRoute(query: RouteQuery): RouteExplanation {
    const ranking = rank(this.registry.all(), query);
    const [winner, ...rest] = ranking.candidates;
    return {
      winner: winner?.adapter.name ?? null,
      model: winner === undefined ? null : (query.model ?? winner.adapter.defaultModel(query.modality)),
      candidates: ranking.candidates.map((c) => ({ provider: c.adapter.name, cost_usd: costOf(c, query.modality) })),
      rejected: [
        ...rest.map((other) => ({ provider: other.adapter.name, reason: lostTo(winner, other, query.modality) })),
        ...ranking.rejected,
      ],
    };
  }

  async estimate(caller: Caller, body: ExecuteBody): Promise<{ provider: string; model: string; estimated_cost_usd: number }> {
    await this.authorizeCall(caller, body);
    const winner = this.candidatesFor(body).candidates[0];
    return {
      provider: winner.adapter.name,
      model: body.model ?? winner.adapter.defaultModel(body.modality),
      estimated_cost_usd: costOf(winner, body.modality),
    };
  }

  /** One call, falling back on a retriable failure to the next candidate (nothing was sent yet). */
  async execute(caller: Caller, body: ExecuteBody, signal: AbortSignal): Promise<ExecuteResult> {
    return this.executeFor(await this.payerOf(caller, body), body, signal);
  }

  /**
   * A call the daemon makes on someone's behalf (a workflow node, a job), authorized when it was
   * submitted. Text is streamed where the provider streams, and `onText` hears each piece as it comes
   * (progress); the answer is whole either way.
   */
  async executeFor(
    payer: Payer,
    body: ExecuteBody,
    signal: AbortSignal,
    onText?: (piece: string) => void,
  ): Promise<ExecuteResult> {
    return this.inTurn(payer, body, signal, false, async (entry, call, progress) => {
      let result: AdapterResult;
      if (onText !== undefined && entry.adapter.stream !== undefined && body.modality === 'text') {
        let text = '';
        for await (const piece of entry.adapter.stream(call)) {
          if (piece.type === 'delta') {
            text += piece.text;
            onText(piece.text);
          } else {
            progress.usage = piece.usage;
            progress.model = piece.model ?? progress.model;
          }
        }
        result = { model: progress.model, output: { text }, usage: progress.usage };
      } else result = await entry.adapter.execute(call);
      progress.usage = result.usage;
      progress.model = result.model;
      return {
        provider: entry.adapter.name,
        modality: body.modality,
        ...result,
        cost_usd: costOf(entry, body.modality),
        latency_ms: Math.round(performance.now() - progress.started),
        attempts: progress.attempts,
      };
    });
  }

  /**
   * A streamed call: falls back while nothing has been written; once the first piece went out, a
   * failure ends the stream with an error frame (never a silent end). A provider that does not
   * stream sends its whole answer as one delta.
   */
  async stream(caller: Caller, body: ExecuteBody, signal: AbortSignal, sink: StreamSink): Promise<void> {
    if (body.modality !== 'text' && body.modality !== 'audio')
      throw validationFailed({ modality: 'streams carry text: use text or audio (a transcript), or /v1/providers/execute' });
    const open = (provider: string, progress: Progress) => {
      if (progress.opened) return;
      sink.open(provider, progress.model);
      progress.opened = true;
    };
    await this.inTurn(
      await this.payerOf(caller, body),
      body,
      signal,
      true,
      async (entry, call, progress) => {
        if (entry.adapter.stream !== undefined && body.modality === 'text') {
          for await (const piece of entry.adapter.stream(call)) {
            open(entry.adapter.name, progress);
            if (piece.type === 'delta') sink.delta(piece.text);
            else {
              progress.usage = piece.usage;
              progress.model = piece.model ?? progress.model;
            }
          }
        } else {
          const result = await entry.adapter.execute(call);
          progress.model = result.model;
          progress.usage = result.usage;
          open(entry.adapter.name, progress);
          if ('text' in result.output) sink.delta(result.output.text);
        }
        open(entry.adapter.name, progress);
        sink.done({ provider: entry.adapter.name, model: progress.model, usage: progress.usage, attempts: progress.attempts });
      },
      (entry, failure) => sink.fail({ code: 'upstream_error', message: `${entry.adapter.name}: ${failure.message}` }),
    );
  }

  /**
   * The candidates in turn: each upstream call recorded (usage, metrics, breaker); a retriable
   * failure before anything was sent goes on to the next; a failure after the answer started ends
   * with `broken`; a cancelled call ends quietly (CallCancelled); anything else is the caller's error.
   */
  private async inTurn<R>(
    payer: Payer,
    body: ExecuteBody,
    signal: AbortSignal,
    streamed: boolean,
    attempt: (entry: Registered, call: AdapterCall, progress: Progress) => Promise<R>,
    broken?: (entry: Registered, failure: UpstreamFailure) => R,
  ): Promise<R> {
    const { candidates } = this.candidatesFor(body);
    const attempts: Attempt[] = [];
    let last: UpstreamFailure | undefined;
    for (const entry of candidates) {
      const call = this.callFor(entry, body, signal);
      const progress: Progress = { started: performance.now(), opened: false, model: call.model, usage: NO_USAGE, attempts };
      // This attempt's entry, there before the answer is built (it lists them); an error replaces it.
      attempts.push({ provider: entry.adapter.name });
      try {
        const value = await attempt(entry, call, progress);
        this.breakers.succeeded(entry.adapter.name);
        this.recordCall(payer, entry, call, streamed, {
          outcome: 'ok',
          usage: progress.usage,
          cost: costOf(entry, body.modality),
          latency: Math.round(performance.now() - progress.started),
          model: progress.model,
        });
        return value;
      } catch (err) {
        const failure = this.failed(entry, err, signal);
        const cancelled = failure.kind === 'cancelled';
        this.recordCall(payer, entry, call, streamed, {
          outcome: cancelled ? 'cancelled' : 'failed',
          latency: Math.round(performance.now() - progress.started),
          usage: progress.usage,
          model: progress.model,
          error: failure,
        });
        attempts[attempts.length - 1] = { provider: entry.adapter.name, error: failure.message };
        if (cancelled) throw new CallCancelled();
        // The model cannot load (failed() took it out of the provider's list): the next candidate may serve.
        if (failure instanceof ModelUnavailable) continue;
        if (progress.opened && broken !== undefined) return broken(entry, failure);
        if (!failure.retriable) throw upstreamError(entry.adapter.name, failure, attempts);
        last = failure;
        this.metrics.providerFallback(entry.adapter.name);
      }
    }
    throw exhausted(last, attempts);
  }

  /** Usage of an organization (admin), grouped by day, provider and model. */
  async usageOf(actor: Actor, organizationId: string, given: UsageQuery): Promise<UsageRow[]> {
    await this.permissions.authorize(actor, 'provider.usage', { type: 'organization', id: organizationId });
    // Compared with stored times as strings: both in their one form.
    const query = {
      ...given,
      since: given.since === undefined ? undefined : canonicalTime(given.since),
      until: given.until === undefined ? undefined : canonicalTime(given.until),
    };
    if (query.since !== undefined && query.until !== undefined && query.since > query.until)
      throw validationFailed({ since: 'must not be after until' });
    await this.usage.flush();
    return summarizeUsage(this.store, organizationId, query);
  }

  /** Probes every provider whose probe is due; answers when the next one falls due (epoch ms). */
  async probeDue(intervalMs: number, timeoutMs: number, now = Date.now()): Promise<number> {
    const due = this.registry.all().filter((e) => e.nextProbeAt <= now);
    await Promise.all(
      due.map(async (entry) => {
        const until = deadline(timeoutMs);
        try {
          const { models, unavailable } = await entry.adapter.probe(until.signal);
          const wasUnhealthy = entry.health.status === 'unhealthy';
          this.registry.markProbed(entry, models, unavailable);
          const { status, reason } = entry.health;
          if (status === 'unhealthy' && !wasUnhealthy)
            this.log.warn({ provider: entry.adapter.name, reason }, 'provider unhealthy');
          if (status === 'healthy' && wasUnhealthy) this.log.info({ provider: entry.adapter.name }, 'provider healthy again');
        } catch (err) {
          const reason =
            err instanceof UpstreamFailure
              ? healthReasonOf(err)
              : until.signal.aborted
                ? `probe timed out after ${timeoutMs} ms`
                : 'probe failed unexpectedly';
          if (!(err instanceof UpstreamFailure) && !until.signal.aborted)
            this.log.error({ err, provider: entry.adapter.name }, 'provider probe failed unexpectedly');
          if (entry.health.status !== 'unhealthy') this.log.warn({ provider: entry.adapter.name, reason }, 'provider unhealthy');
          this.registry.markUnhealthy(entry, reason);
        } finally {
          until.clear();
          entry.nextProbeAt = Date.now() + intervalMs;
        }
      }),
    );
    return Math.min(...this.registry.all().map((e) => e.nextProbeAt));
  }

  /** The organization a call is made for, once the caller may execute there (member+, providers:execute). */
  private async payerOf(caller: Caller, body: ExecuteBody): Promise<Payer> {
    const organizationId = await this.authorizeCall(caller, body);
    return { organizationId, principalId: caller.principalId, apiKeyId: caller.apiKey?.id ?? null };
  }

  private async authorizeCall(caller: Caller, body: ExecuteBody): Promise<string> {
    const organizationId = organizationOf(caller, body.organization_id);
    await this.permissions.authorize(caller, 'provider.execute', { type: 'organization', id: organizationId });
    return organizationId;
  }

  private candidatesFor(body: ExecuteBody): Ranking & { candidates: [Registered, ...Registered[]] } {
    const ranking = rank(this.registry.all(), body);
    if (ranking.candidates.length === 0) {
      const reasons = ranking.rejected.map((r) => `${r.provider}: ${r.reason}`).join('; ');
      const asked = [body.modality, body.tier, body.model].filter((x) => x !== undefined).join(', ');
      throw new AppError('no_provider', `no provider can serve ${asked}: ${reasons}`, {
        details: { rejected: ranking.rejected },
      });
    }
    return ranking as Ranking & { candidates: [Registered, ...Registered[]] };
  }

  private callFor(entry: Registered, body: ExecuteBody, signal: AbortSignal): AdapterCall {
    return {
      modality: body.modality,
      model: body.model ?? entry.adapter.defaultModel(body.modality),
      input: body.input,
      params: body.params ?? {},
      signal,
    };
  }

  /**
   * A call's error as an UpstreamFailure. A retriable failure counts in the provider's window and
   * opens its breaker when the window's failure rate says so; our key refused (401/403) opens it at once.
   */
  private failed(entry: Registered, err: unknown, signal: AbortSignal): UpstreamFailure {
    const failure =
      err instanceof UpstreamFailure
        ? err
        : signal.aborted
          ? new UpstreamFailure('cancelled by the client', false, 'cancelled')
          : // An adapter's own bug: logged below; its text (a stack's words) never reaches a client.
            new UpstreamFailure('the provider adapter failed unexpectedly', false, 'protocol');
    if (!(err instanceof UpstreamFailure) && !signal.aborted)
      this.log.error({ err, provider: entry.adapter.name }, 'provider adapter failed');
    if (failure instanceof ModelUnavailable) this.registry.markModelUnavailable(entry, failure.model, failure.reason);
    const refused = failure.status === 401 || failure.status === 403;
    const tripped = refused ? undefined : failure.retriable ? this.breakers.failed(entry.adapter.name) : undefined;
    if (refused || tripped !== undefined) {
      if (refused) this.breakers.reset(entry.adapter.name);
      const rate =
        tripped === undefined ? '' : ` (${tripped.failures} of ${tripped.calls} calls in ${this.options.breaker.windowMs} ms)`;
      this.registry.markUnhealthy(entry, `call failed: ${healthReasonOf(failure)}${rate}`);
      entry.nextProbeAt = Date.now() + this.options.breakerCooldownMs;
      this.onProbeDue();
    }
    return failure;
  }

  private recordCall(
    payer: Payer,
    entry: Registered,
    call: AdapterCall,
    streamed: boolean,
    outcome: {
      outcome: 'ok' | 'failed' | 'cancelled';
      latency: number;
      usage?: Usage;
      cost?: number;
      model?: string;
      error?: UpstreamFailure;
    },
  ): void {
    this.metrics.providerCall(entry.adapter.name, call.modality, outcome.outcome, outcome.latency / 1000);
    this.usage.record({
      organization_id: payer.organizationId,
      principal_id: payer.principalId,
      api_key_id: payer.apiKeyId,
      provider: entry.adapter.name,
      model: outcome.model ?? call.model,
      modality: call.modality,
      streamed,
      input_tokens: outcome.usage?.input_tokens ?? 0,
      output_tokens: outcome.usage?.output_tokens ?? 0,
      cost_usd: outcome.cost ?? 0,
      latency_ms: outcome.latency,
      outcome: outcome.outcome,
      error_code:
        outcome.error === undefined
          ? null
          : outcome.error.status !== undefined
            ? `http_${outcome.error.status}`
            : outcome.error.kind,
    });
  }
}

function upstreamError(provider: string, failure: UpstreamFailure, attempts: Attempt[]): AppError {
  return new AppError('upstream_error', `${provider}: ${failure.message}`, { details: { attempts } });
}

/**
 * Every candidate failed retriably: 504 when the last one timed out, else 502, listing each attempt.
 * When none was the upstream's failure (`last` unset: each candidate's model could not load), 503
 * no provider can serve the request.
 */
function exhausted(last: UpstreamFailure | undefined, attempts: Attempt[]): AppError {
  const summary = attempts.map((a) => `${a.provider}: ${a.error ?? 'ok'}`).join('; ');
  if (last === undefined)
    return new AppError('no_provider', `no provider can serve this request: ${summary}`, { details: { attempts } });
  return new AppError(last.kind === 'timeout' ? 'upstream_timeout' : 'upstream_error', `every provider failed: ${summary}`, {
    details: { attempts },
  });
}

/**
 * What a failure says in a provider's health, which every tenant reads (the provider list, 503
 * messages, `provider route`): its class and status. A provider's own text may quote the request
 * that failed, so it reaches only that call's caller, scrubbed. Connection and timeout failures and
 * unavailable runtimes are described in the daemon's own words.
 */
export function healthReasonOf(failure: UpstreamFailure): string {
  switch (failure.kind) {
    case 'status':
      return failure.status === undefined ? 'an error answer' : String(failure.status);
    case 'protocol':
      return 'an answer outside its protocol';
    case 'cancelled':
      return 'cancelled';
    default:
      return failure.message;
  }
}
