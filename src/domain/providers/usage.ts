// Usage records (issue 13 item 5) are written in batches after the call has answered: a call never
// waits on the disk. A batch commits every FLUSH_MS or at BATCH records, and on shutdown; a crash
// loses at most the records of the last FLUSH_MS (docs/providers.md). Each organization's records of
// one flush and one UTC hour are stored as one UsageBatch: one write instead of one per call (a
// record each cost a quarter of an execute's CPU).
import type { Logger } from '../../log.js';
import { newSortableId, nowIso } from '../../storage/keys.js';
import type { Storage } from '../../storage/port.js';
import type { UsageQuery, UsageRow } from './schemas.js';
import type { ProviderStore } from './store.js';
import type { UsageBatch, UsageRecord } from './types.js';

const FLUSH_MS = 200;
const BATCH = 500;
/** Records kept while the store refuses writes (a full disk): beyond this the oldest are dropped, and logged. */
const MAX_PENDING = 50_000;
const DAY_MS = 86_400_000;
const READ_STEP = 1000;

export class UsageRecorder {
  private pending: UsageRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: Storage,
    private readonly store: ProviderStore,
    private readonly log: Logger,
  ) {}

  record(entry: Omit<UsageRecord, 'created_at'>): void {
    this.pending.push({ created_at: nowIso(), ...entry });
    if (this.pending.length > MAX_PENDING) {
      const dropped = this.pending.splice(0, this.pending.length - MAX_PENDING);
      this.log.error({ dropped: dropped.length }, 'usage records dropped: the store has refused writes for too long');
    }
    if (this.pending.length >= BATCH) this.flushSoon(0);
    else this.flushSoon(FLUSH_MS);
  }

  /** Writes what is pending now (tests, shutdown). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private flushSoon(ms: number): void {
    if (this.timer !== undefined && ms > 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), ms);
    this.timer.unref();
  }

  private async write(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, BATCH);
      try {
        await this.storage.transaction({}, (tx) => {
          for (const stored of groupByHour(batch)) tx.insert(this.store.usage, stored);
          return Promise.resolve();
        });
      } catch (err) {
        // Kept for the next flush, in order.
        this.pending.unshift(...batch);
        this.log.error({ err, records: batch.length }, 'usage records could not be written; retrying');
        this.flushSoon(FLUSH_MS * 5);
        return;
      }
    }
  }
}

/** Records as stored batches: one per organization and UTC hour, in the order recorded. */
function groupByHour(records: readonly UsageRecord[]): UsageBatch[] {
  const batches = new Map<string, UsageBatch>();
  for (const record of records) {
    const key = `${record.organization_id}\u0000${record.created_at.slice(0, 13)}`;
    let batch = batches.get(key);
    if (batch === undefined)
      batches.set(
        key,
        (batch = {
          id: newSortableId('usb_'),
          organization_id: record.organization_id,
          first_at: record.created_at,
          records: [],
        }),
      );
    batch.records.push(record);
  }
  return [...batches.values()];
}

/** Usage of one organization in a window, grouped by UTC day, provider and model (oldest day first). */
export async function summarizeUsage(
  store: ProviderStore,
  organizationId: string,
  query: UsageQuery,
  now = Date.now(),
): Promise<UsageRow[]> {
  const until = query.until ?? new Date(now).toISOString();
  const since = query.since ?? new Date(Date.parse(until) - 30 * DAY_MS).toISOString();
  const rows = new Map<string, UsageRow & { latencyTotal: number }>();
  // A batch holds one UTC hour: those that may hold records of the window begin at its hour or later.
  const fromHour = `${since.slice(0, 13)}`;
  let after: string | undefined;
  for (;;) {
    const entries = await store.usage.range('organization', organizationId, {
      ...(after === undefined ? { from: fromHour } : { after }),
      before: `${until}\uffff`,
      limit: READ_STEP,
    });
    if (entries.length === 0) break;
    const batches = await store.usage.getMany(entries.map((e) => e.id));
    for (const r of batches.flatMap((b) => b?.records ?? [])) {
      if (r.created_at < since || r.created_at > until || (query.provider !== undefined && r.provider !== query.provider))
        continue;
      const day = r.created_at.slice(0, 10);
      const key = `${day}\u0000${r.provider}\u0000${r.model}`;
      let row = rows.get(key);
      if (row === undefined) {
        row = {
          day,
          provider: r.provider,
          model: r.model,
          calls: 0,
          failures: 0,
          input_tokens: 0,
          output_tokens: 0,
          cost_usd: 0,
          latency_ms_avg: 0,
          latencyTotal: 0,
        };
        rows.set(key, row);
      }
      row.calls++;
      if (r.outcome !== 'ok') row.failures++;
      row.input_tokens += r.input_tokens;
      row.output_tokens += r.output_tokens;
      row.cost_usd += r.cost_usd;
      row.latencyTotal += r.latency_ms;
    }
    if (entries.length < READ_STEP) break;
    after = entries[entries.length - 1].sort;
  }
  return [...rows.values()]
    .sort((a, b) => a.day.localeCompare(b.day) || a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model))
    .map(({ latencyTotal, ...row }) => ({
      ...row,
      cost_usd: Math.round(row.cost_usd * 1e6) / 1e6,
      latency_ms_avg: row.calls === 0 ? 0 : Math.round(latencyTotal / row.calls),
    }));
}
