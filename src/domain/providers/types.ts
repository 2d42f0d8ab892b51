// Lists the CLI offers as choices too: kept here, away from zod, so the CLI loads no schema module.
export const modalities = ['text', 'image', 'embedding', 'audio'] as const;
export const tiers = ['basic', 'premium'] as const;
export type Modality = (typeof modalities)[number];
export type Tier = (typeof tiers)[number];

/** The registered names (contract 8), in the spec's registration order (rule 7: equal costs break by it). */
export const providerNames = ['openai', 'anthropic', 'ollama', 'whisper', 'comfyui', 'gguf', 'transformers', 'echo'] as const;
export type ProviderName = (typeof providerNames)[number];

export type StreamFormat = 'sse' | 'ndjson';

export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

export type Output = { text: string } | { embeddings: number[][] } | { images: { content_type: string; base64: string }[] };

/** One call as an adapter sees it: validated input of one modality, a model chosen, caller params. */
export interface AdapterCall {
  modality: Modality;
  model: string;
  input: Record<string, unknown>;
  params: Record<string, unknown>;
  signal: AbortSignal;
}

export interface AdapterResult {
  model: string;
  output: Output;
  usage: Usage;
}

/** What a stream yields: text as it comes, and usage from whichever piece carries it. */
export type StreamPiece = { type: 'delta'; text: string } | { type: 'usage'; usage: Usage; model?: string };

export interface ProbeResult {
  /** The provider's own model list (OpenAI and Anthropic /v1/models, Ollama /api/tags); empty when it has none. */
  models: string[];
  /** Model files found that cannot be loaded, each with why (in-process runtimes; issue 33 item 4). */
  unavailable?: UnavailableModel[];
}

/** A model a provider has but cannot run, and why, in the daemon's own words. */
export interface UnavailableModel {
  model: string;
  reason: string;
}

/** One provider protocol. Adapters throw UpstreamFailure for anything the provider did wrong. */
export interface Adapter {
  readonly name: ProviderName;
  /** The spec's 2.6 kind, for the provider record. */
  readonly kind: string;
  readonly tier: Tier;
  readonly modalities: readonly Modality[];
  /** The native stream format, or null when the provider answers in one piece. */
  readonly streaming: StreamFormat | null;
  /** Default cost of one request, per modality (USD). */
  readonly costs: Partial<Record<Modality, number>>;
  /** The model used when a request names none. */
  defaultModel(modality: Modality): string;
  /** Checks the provider answers (its health endpoint) and reads its model list. */
  probe(signal: AbortSignal): Promise<ProbeResult>;
  execute(call: AdapterCall): Promise<AdapterResult>;
  /** Streams text; returns normally only when the provider's terminator arrived. Text modality only. */
  stream?(call: AdapterCall): AsyncIterable<StreamPiece>;
  /** Frees what the adapter holds in process (the in-process runtimes' models), at daemon shutdown. */
  close?(): Promise<void>;
}

export interface Health {
  status: 'healthy' | 'unhealthy' | 'unknown';
  checked_at: string | null;
  reason?: string;
}

/** Routing settings an operator changed (contract 8), persisted; absent fields keep the defaults. */
export interface StoredProviderSettings {
  name: ProviderName;
  tier?: Tier;
  cost_usd?: number;
  models?: string[];
  enabled?: boolean;
  drained?: boolean;
  updated_at: string;
}

/** The provider record of contract 8. */
export interface ProviderRecord {
  name: ProviderName;
  kind: string;
  tier: Tier;
  modalities: Modality[];
  models: string[];
  streaming: StreamFormat | null;
  capabilities: { modality: Modality; estimated_cost_per_request: number }[];
  health: Health;
  /** Models found that cannot be loaded: never advertised, never routed to. */
  unavailable_models: UnavailableModel[];
  enabled: boolean;
  drained: boolean;
}

/** One usage record (issue 13 item 5): who called what, what it cost, how it ended. */
export interface UsageRecord {
  organization_id: string;
  principal_id: string | null;
  api_key_id: string | null;
  provider: string;
  model: string;
  modality: Modality;
  streamed: boolean;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  latency_ms: number;
  outcome: 'ok' | 'failed' | 'cancelled';
  error_code: string | null;
  created_at: string;
}

/**
 * How usage is stored: the records of one organization from one flush and one UTC hour, together
 * (docs/providers.md). A busy daemon writes a few stored records a second instead of one per call.
 */
export interface UsageBatch {
  id: string;
  organization_id: string;
  /** The first record's time: the hour the batch belongs to. */
  first_at: string;
  records: UsageRecord[];
}
