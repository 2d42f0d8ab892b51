// The registered providers with what the router reads of each: its settings (defaults, then what an
// operator set), its advertised models and its health. Health and models are this daemon's own
// (each daemon probes); settings are shared through the storage and re-read on every daemon at once.
import type { Modality, Tier } from './types.js';
import type { Adapter, Health, ProviderRecord, StoredProviderSettings, UnavailableModel } from './types.js';

export interface Registered {
  adapter: Adapter;
  /** Position in the spec's registration order (rule 7). */
  order: number;
  health: Health;
  /** From the provider's own list, refreshed by each successful probe. */
  probedModels: string[];
  /** Models the provider has but cannot load, with why: not advertised, not routed to. */
  unavailableModels: UnavailableModel[];
  settings: StoredProviderSettings | undefined;
  /** When the next probe is due (epoch ms): the interval after a probe, sooner after a failed call. */
  nextProbeAt: number;
}

/** Model names compare without Ollama's implicit `:latest` tag. */
export function sameModel(a: string, b: string): boolean {
  const strip = (m: string) => (m.endsWith(':latest') ? m.slice(0, -':latest'.length) : m);
  return strip(a) === strip(b);
}

export class ProviderRegistry {
  private readonly entries: Registered[];

  constructor(adapters: readonly Adapter[]) {
    this.entries = adapters.map((adapter, order) => ({
      adapter,
      order,
      health: { status: 'unknown', checked_at: null },
      probedModels: [],
      unavailableModels: [],
      settings: undefined,
      nextProbeAt: 0,
    }));
  }

  all(): readonly Registered[] {
    return this.entries;
  }

  find(name: string): Registered | undefined {
    return this.entries.find((e) => e.adapter.name === name);
  }

  /** Replaces every provider's stored settings (a record per changed provider). */
  applySettings(stored: readonly StoredProviderSettings[]): void {
    const byName = new Map<string, StoredProviderSettings>(stored.map((s) => [s.name, s]));
    for (const entry of this.entries) entry.settings = byName.get(entry.adapter.name);
  }

  /**
   * A probe's answer: the models it lists and the model files it cannot load. Health per model: a
   * provider whose model files all fail to load is unhealthy, one bad file is not.
   */
  markProbed(entry: Registered, models: string[], unavailable: UnavailableModel[] = [], now = Date.now()): void {
    entry.probedModels = models;
    entry.unavailableModels = unavailable;
    if (models.length === 0 && unavailable.length > 0) this.markUnhealthy(entry, noModelLoads(unavailable), now);
    else entry.health = { status: 'healthy', checked_at: new Date(now).toISOString() };
  }

  /**
   * A model that failed to load on a call: no longer advertised, and the provider unhealthy when it
   * was the last one it could run (until the next probe finds the files again).
   */
  markModelUnavailable(entry: Registered, model: string, reason: string, now = Date.now()): void {
    entry.probedModels = entry.probedModels.filter((m) => m !== model);
    entry.unavailableModels = [...entry.unavailableModels.filter((u) => u.model !== model), { model, reason }];
    if (entry.probedModels.length === 0) this.markUnhealthy(entry, noModelLoads(entry.unavailableModels), now);
  }

  markUnhealthy(entry: Registered, reason: string, now = Date.now()): void {
    entry.health = { status: 'unhealthy', checked_at: new Date(now).toISOString(), reason };
  }
}

/** A provider's health reason when it has model files and none of them can load. */
export function noModelLoads(unavailable: readonly UnavailableModel[]): string {
  return `no model can be loaded (${unavailable.map((u) => `${u.model}: ${u.reason}`).join('; ')})`;
}

/** Why a provider cannot run `model`, when it is one of its files that cannot load. */
export function unloadableReason(entry: Registered, model: string): string | undefined {
  const found = entry.unavailableModels.find((u) => u.model === model);
  return found === undefined ? undefined : `model ${model} cannot be loaded: ${found.reason}`;
}

export function tierOf(entry: Registered): Tier {
  return entry.settings?.tier ?? entry.adapter.tier;
}

export function costOf(entry: Registered, modality: Modality): number {
  return entry.settings?.cost_usd ?? entry.adapter.costs[modality] ?? 0;
}

export function enabledOf(entry: Registered): boolean {
  return entry.settings?.enabled ?? true;
}

export function drainedOf(entry: Registered): boolean {
  return entry.settings?.drained ?? false;
}

/** Advertised models: the provider's own list plus those an operator added (contract 8). */
export function modelsOf(entry: Registered): string[] {
  const extra = entry.settings?.models ?? [];
  return [...new Set([...entry.probedModels, ...extra])];
}

export function recordOf(entry: Registered): ProviderRecord {
  const { adapter } = entry;
  return {
    name: adapter.name,
    kind: adapter.kind,
    tier: tierOf(entry),
    modalities: [...adapter.modalities],
    models: modelsOf(entry),
    streaming: adapter.streaming,
    capabilities: adapter.modalities.map((modality) => ({ modality, estimated_cost_per_request: costOf(entry, modality) })),
    health: { ...entry.health },
    unavailable_models: entry.unavailableModels.map((u) => ({ ...u })),
    enabled: enabledOf(entry),
    drained: drainedOf(entry),
  };
}
