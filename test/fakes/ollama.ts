// A local stand-in for Ollama's API, on 127.0.0.1:0, as its docs/api.md documents it: GET / ("Ollama
// is running"), /api/version, /api/tags; POST /api/chat and /api/generate, which stream NDJSON unless
// `stream: false` (each line `done: false`, then a last line with `done: true`, done_reason and the
// eval counts and durations); POST /api/embed. Errors are `{error: "..."}`, also as a line mid-stream.
import type { ServerResponse } from 'node:http';
import type { Test } from 'tap';
import { splitInto, vectorOf, words } from './openai.js';
import { ChatFake, sendJson, writeStream, type ChatFakeOptions, type Fault, type ProviderRequest } from './provider-server.js';

const line = (value: Record<string, unknown>) => `${JSON.stringify(value)}\n`;

export class FakeOllama extends ChatFake {
  private constructor(options: ChatFakeOptions) {
    super({ models: ['llama3.2:latest', 'nomic-embed-text:latest'], reply: 'Hello from the fake Ollama.' }, options);
    this.server.route(
      'GET',
      '/',
      (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('Ollama is running'),
      false,
    );
    this.server.route('GET', '/api/version', (_req, res) => sendJson(res, 200, { version: '0.12.0' }), false);
    this.server.route('GET', '/api/tags', (_req, res) => this.tags(res), false);
    this.server.route('POST', '/api/chat', (req, res, fault) => this.generate(req, res, fault, 'chat'));
    this.server.route('POST', '/api/generate', (req, res, fault) => this.generate(req, res, fault, 'generate'));
    this.server.route('POST', '/api/embed', (req, res, fault) => this.embed(req, res, fault));
  }

  static async start(t: Test, options: ChatFakeOptions = {}): Promise<FakeOllama> {
    const fake = new FakeOllama(options);
    return ChatFake.listening(fake, t);
  }

  /** OLLAMA_HOST. */

  private known(model: unknown): model is string {
    return typeof model === 'string' && this.models.some((m) => m === model || m === `${model}:latest`);
  }

  private tags(res: ServerResponse): void {
    sendJson(res, 200, {
      models: this.models.map((name) => ({
        name,
        model: name,
        modified_at: '2025-01-01T00:00:00Z',
        size: 2019393189,
        digest: 'a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72',
        details: {
          parent_model: '',
          format: 'gguf',
          family: 'llama',
          families: ['llama'],
          parameter_size: '3.2B',
          quantization_level: 'Q4_K_M',
        },
      })),
    });
  }

  private async generate(req: ProviderRequest, res: ServerResponse, fault: Fault, api: 'chat' | 'generate'): Promise<void> {
    if (fault.kind === 'status')
      return sendJson(res, fault.status, { error: fault.message ?? 'an error was encountered while running the model' });
    const body = req.body as Record<string, unknown>;
    if (!this.known(body.model))
      return sendJson(res, 404, { error: `model "${String(body.model)}" not found, try pulling it first` });
    const prompt =
      api === 'chat'
        ? ((body.messages as { content: string }[] | undefined) ?? []).map((m) => m.content).join(' ')
        : typeof body.prompt === 'string'
          ? body.prompt
          : '';
    const created_at = new Date().toISOString();
    const piece = (text: string) =>
      api === 'chat'
        ? { model: body.model, created_at, message: { role: 'assistant', content: text }, done: false }
        : { model: body.model, created_at, response: text, done: false };
    const final = {
      ...piece(''),
      done: true,
      done_reason: 'stop',
      total_duration: 5_000_000,
      load_duration: 1_000_000,
      prompt_eval_count: words(prompt),
      prompt_eval_duration: 1_000_000,
      eval_count: words(this.reply),
      eval_duration: 3_000_000,
    };
    if (body.stream === false) {
      sendJson(
        res,
        200,
        api === 'chat' ? { ...final, message: { role: 'assistant', content: this.reply } } : { ...final, response: this.reply },
      );
      return;
    }
    const pieces = splitInto(this.reply, this.chunks).map((text) => line(piece(text)));
    const errorAfter = this.takeStreamError();
    if (errorAfter !== undefined) {
      const cut = [
        ...pieces.slice(0, errorAfter),
        line({ error: 'an error was encountered while running the model: unexpected EOF' }),
      ];
      await writeStream(res, 'application/x-ndjson', cut, [], { kind: 'truncate' }, this.gapMs);
      return;
    }
    await writeStream(res, 'application/x-ndjson', pieces, [line(final)], fault, this.gapMs);
  }

  private embed(req: ProviderRequest, res: ServerResponse, fault: Fault): void {
    if (fault.kind === 'status') return sendJson(res, fault.status, { error: fault.message ?? 'embedding failed' });
    const body = req.body as Record<string, unknown>;
    if (!this.known(body.model))
      return sendJson(res, 404, { error: `model "${String(body.model)}" not found, try pulling it first` });
    const input = body.input;
    const texts = typeof input === 'string' ? [input] : Array.isArray(input) ? (input as unknown[]).map(String) : [];
    sendJson(res, 200, {
      model: body.model,
      embeddings: texts.map(vectorOf),
      total_duration: 14_143_917,
      load_duration: 1_019_500,
      prompt_eval_count: texts.reduce((n, t) => n + words(t), 0),
    });
  }
}
