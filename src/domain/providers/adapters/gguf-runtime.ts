// The model-file runtime (spec 2.6, `gguf`): GGUF models run in process by node-llama-cpp, an
// optional dependency loaded on the first call. CPU only and prebuilt binaries only: llama.cpp is
// never compiled from source and nothing is downloaded (docs/providers.md). A text call is a chat:
// the messages go through the model's own chat template, and the model writes the answer.
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type * as NodeLlamaCppModule from 'node-llama-cpp';
import type { ChatHistoryItem, Llama, LlamaChat, LlamaContextSequence, LlamaLogLevel, LlamaModel } from 'node-llama-cpp';
import type { Logger } from '../../../log.js';
import type { AdapterCall, AdapterResult } from '../types.js';
import { ModelUnavailable, UpstreamFailure } from '../upstream.js';
import { messagesOf, samplingOf } from './common.js';
import { LoadedOnce } from './loaded-once.js';

/** The node-llama-cpp module, as the first call imports it. */
export type NodeLlamaCpp = typeof NodeLlamaCppModule;

/** Tokens a call writes at most (a request's max_tokens may lower it), and without max_tokens. */
const MAX_NEW_TOKENS = 256;
const DEFAULT_NEW_TOKENS = 64;
/** The context (prompt and answer) at most: a model trained on more gets this much, memory permitting. */
const MAX_CONTEXT_TOKENS = 4096;

interface LoadedModel {
  model: LlamaModel;
  sequence: LlamaContextSequence;
  chat: LlamaChat;
  /** The call before this one on the model: one generation at a time, the rest wait their turn. */
  turn: Promise<void>;
}

/**
 * A failed load in the daemon's words: the runtime's text (a JavaScript exception from its metadata
 * reader, or llama.cpp's log line) is for the operator's log only.
 */
export function loadFailureReason(runtimeText: string): string {
  if (/magic|not a gguf|invalid gguf|unknown file/i.test(runtimeText)) return 'not a GGUF file';
  if (/bounds|end of file|eof|incomplete|truncat|out of range|failed to read/i.test(runtimeText)) return 'file is cut short';
  if (/architecture/i.test(runtimeText)) return 'not a model this runtime knows (no supported architecture in its metadata)';
  return 'the runtime could not load it (the daemon log says why)';
}

export class GgufRuntime {
  private llama: Promise<Llama> | undefined;
  /** Each model file of the directory, loaded once by its file name. */
  private readonly models = new LoadedOnce<LoadedModel>((name) => this.open(name));
  /** llama.cpp's error lines, kept a moment: a failed load says why only there. */
  private readonly errors: string[] = [];

  constructor(
    private readonly llamaCpp: NodeLlamaCpp,
    private readonly modelDir: string,
    private readonly options: { threads: number; log: Logger },
  ) {}

  /** `models`: the model files of the directory (a call may name only one of them). */
  async execute(call: AdapterCall, models: readonly string[]): Promise<AdapterResult> {
    const name = call.model !== '' ? call.model : models[0];
    if (name === undefined) throw new UpstreamFailure('no .gguf model in the model directory', false, 'unavailable');
    if (!models.includes(name)) throw new UpstreamFailure(`model ${name} is not in the model directory`, false, 'unavailable');
    const loaded = await this.models.get(name);
    const answer = loaded.turn.then(() => this.generate(name, loaded, call));
    loaded.turn = answer.then(
      () => undefined,
      () => undefined,
    );
    return answer;
  }

  /** Frees every model and the llama.cpp backend (daemon shutdown); a later call loads them again. */
  async close(): Promise<void> {
    const llama = this.llama;
    this.llama = undefined;
    this.models.clear();
    if (llama !== undefined) await (await llama.catch(() => undefined))?.dispose();
  }

  private async generate(name: string, loaded: LoadedModel, call: AdapterCall): Promise<AdapterResult> {
    if (call.signal.aborted) throw new UpstreamFailure('cancelled by the client', false, 'cancelled');
    const sampling = samplingOf(call.params);
    const limit = Math.max(1, Math.min(sampling.max_tokens ?? DEFAULT_NEW_TOKENS, MAX_NEW_TOKENS));
    const history: ChatHistoryItem[] = messagesOf(call.input).map((m) =>
      m.role === 'assistant' ? { type: 'model', response: [m.content] } : { type: m.role, text: m.content },
    );
    history.push({ type: 'model', response: [] });
    let written = 0;
    try {
      // Each call starts from an empty context: calls share nothing, and usage counts the whole prompt.
      await loaded.sequence.clearHistory();
      // The template may refuse a conversation (roles out of order): that is the model's answer too.
      const prompt = loaded.chat.chatWrapper.generateContextState({ chatHistory: history }).contextText;
      const answer = await loaded.chat.generateResponse(history, {
        maxTokens: limit,
        temperature: sampling.temperature ?? 0,
        topP: sampling.top_p,
        customStopTriggers: sampling.stop,
        signal: call.signal,
        onResponseChunk: (chunk) => (written += chunk.tokens.length),
      });
      return {
        model: name,
        output: { text: answer.response },
        usage: { input_tokens: prompt.tokenize(loaded.model.tokenizer).length, output_tokens: written },
      };
    } catch (err) {
      if (call.signal.aborted) throw new UpstreamFailure('cancelled by the client', false, 'cancelled');
      // The runtime's own text stays in the log: a client reads the daemon's words.
      this.options.log.warn({ err, model: name }, 'gguf generation failed');
      throw new UpstreamFailure(`model ${name} failed while writing its answer`, false, 'protocol');
    }
  }

  private async open(name: string): Promise<LoadedModel> {
    const llama = await this.backend();
    this.errors.length = 0;
    let model: LlamaModel;
    try {
      model = await llama.loadModel({ modelPath: path.join(this.modelDir, name), gpuLayers: 0 });
    } catch (err) {
      const why = await this.loadError();
      const message = (err as Error).message + (why !== undefined ? ` (${why})` : '');
      this.options.log.warn({ model: name, runtime: message }, 'gguf model could not be loaded');
      throw new ModelUnavailable(name, loadFailureReason(message));
    }
    try {
      const context = await model.createContext({
        contextSize: { max: MAX_CONTEXT_TOKENS },
        sequences: 1,
        threads: this.options.threads,
      });
      const sequence = context.getSequence();
      return { model, sequence, chat: new this.llamaCpp.LlamaChat({ contextSequence: sequence }), turn: Promise.resolve() };
    } catch (err) {
      await model.dispose();
      this.options.log.warn({ err, model: name }, 'gguf model context could not be created');
      throw new UpstreamFailure(`model ${name} has no room to run: not enough memory for its context`, false, 'unavailable');
    }
  }

  /**
   * Why llama.cpp refused a model file: its log says so, not its "Failed to load model", and the log
   * line may come a moment after the failure (another thread writes it), so it is awaited briefly.
   */
  private async loadError(): Promise<string | undefined> {
    for (let waited = 0; ; waited += 10) {
      const line = this.errors.find((l) => l.includes('error loading model: '));
      if (line !== undefined || waited >= 250) return line?.slice(line.indexOf('error loading model: ') + 21);
      await delay(10);
    }
  }

  /** llama.cpp itself, once: CPU only, its prebuilt binary only (never built here, never downloaded). */
  private backend(): Promise<Llama> {
    this.llama ??= this.llamaCpp
      .getLlama({
        gpu: false,
        build: 'never',
        skipDownload: true,
        usePrebuiltBinaries: true,
        progressLogs: false,
        maxThreads: this.options.threads,
        logLevel: this.llamaCpp.LlamaLogLevel.warn,
        logger: (level, message) => this.logged(level, message),
      })
      .catch((err: unknown) => {
        this.llama = undefined;
        throw new UpstreamFailure(
          `unavailable: node-llama-cpp has no working prebuilt binary for this machine: ${(err as Error).message}`,
          false,
          'unavailable',
        );
      });
    return this.llama;
  }

  private logged(level: LlamaLogLevel, message: string): void {
    const text = message.trim();
    if (text === '') return;
    const { LlamaLogLevel: levels } = this.llamaCpp;
    if (level === levels.error || level === levels.fatal) {
      this.errors.push(text);
      if (this.errors.length > 20) this.errors.shift();
      this.options.log.error({ llama: text }, 'llama.cpp');
    } else if (level === levels.warn) this.options.log.warn({ llama: text }, 'llama.cpp');
    else this.options.log.debug({ llama: text }, 'llama.cpp');
  }
}
