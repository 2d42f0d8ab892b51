// A local stand-in for the OpenAI API (and every OpenAI-compatible server), on 127.0.0.1:0, as its
// API reference documents it: `Authorization: Bearer`, GET /v1/models, POST /v1/chat/completions
// (a chat.completion, or with `stream: true` server-sent `chat.completion.chunk`s, a usage chunk with
// empty `choices` when `stream_options.include_usage` is set, then `data: [DONE]`), /v1/embeddings and
// /v1/images/generations (`b64_json`). Errors are `{error: {message, type, param, code}}`.
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Test } from 'tap';
import { ChatFake, sendJson, writeStream, type ChatFakeOptions, type Fault, type ProviderRequest } from './provider-server.js';

/** A 1x1 PNG. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Words of a text: the fake's token count. */
export function words(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

/** Splits `text` into `n` pieces that join back to it exactly. */
export function splitInto(text: string, n: number): string[] {
  const size = Math.ceil(text.length / Math.max(1, n));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

/** Eight numbers from a text's hash. */
export function vectorOf(text: string): number[] {
  const digest = createHash('sha256').update(text).digest();
  return Array.from({ length: 8 }, (_, i) => digest.readInt16BE(i * 2) / 32768);
}

const ERROR_TYPES: Record<number, [type: string, code: string | null]> = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['requests', 'rate_limit_exceeded'],
  500: ['server_error', null],
  503: ['server_error', null],
};

export class FakeOpenAI extends ChatFake {
  apiKey: string;

  private constructor(options: ChatFakeOptions) {
    super({ models: ['gpt-4o-mini', 'text-embedding-3-small', 'dall-e-3'], reply: 'Hello from the fake OpenAI.' }, options);
    this.apiKey = options.apiKey ?? 'sk-test-fake';
    this.server.route(
      'GET',
      '/v1/models',
      (req, res) => {
        if (this.authorized(req, res)) this.listModels(res);
      },
      false,
    );
    this.server.route('POST', '/v1/chat/completions', (req, res, fault) => this.chat(req, res, fault));
    this.server.route('POST', '/v1/embeddings', (req, res, fault) => this.embeddings(req, res, fault));
    this.server.route('POST', '/v1/images/generations', (req, res, fault) => this.images(req, res, fault));
  }

  static async start(t: Test, options: ChatFakeOptions = {}): Promise<FakeOpenAI> {
    const fake = new FakeOpenAI(options);
    return ChatFake.listening(fake, t);
  }

  /** OPENAI_BASE_URL includes the version path. */
  get baseUrl(): string {
    return `${this.server.url}/v1`;
  }

  private error(res: ServerResponse, status: number, message: string, retryAfter?: string): void {
    const [type, code] = ERROR_TYPES[status] ?? (status >= 500 ? ['server_error', null] : ['invalid_request_error', null]);
    sendJson(
      res,
      status,
      { error: { message, type, param: null, code } },
      retryAfter === undefined ? {} : { 'retry-after': retryAfter },
    );
  }

  private authorized(req: ProviderRequest, res: ServerResponse): boolean {
    if (req.headers.authorization === `Bearer ${this.apiKey}`) return true;
    const shown = String(req.headers.authorization ?? '').replace(/^Bearer\s+/, '');
    this.error(
      res,
      401,
      `Incorrect API key provided: ${shown.slice(0, 3)}***${shown.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    );
    return false;
  }

  /** Checks auth, the scripted status fault, and the model; true when the call may answer. */
  private admit(
    req: ProviderRequest,
    res: ServerResponse,
    fault: Fault,
  ): req is ProviderRequest & { body: Record<string, unknown> } {
    if (!this.authorized(req, res)) return false;
    if (fault.kind === 'status') {
      this.error(
        res,
        fault.status,
        fault.message ?? `The server had an error while processing your request (${fault.status}).`,
        fault.retryAfter,
      );
      return false;
    }
    const body = req.body as Record<string, unknown> | null;
    if (body === null || typeof body !== 'object' || typeof body.model !== 'string') {
      this.error(res, 400, 'you must provide a model parameter');
      return false;
    }
    if (!this.models.includes(body.model)) {
      this.error(res, 404, `The model \`${body.model}\` does not exist or you do not have access to it.`);
      return false;
    }
    return true;
  }

  private listModels(res: ServerResponse): void {
    sendJson(res, 200, {
      object: 'list',
      data: this.models.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'system' })),
    });
  }

  private async chat(req: ProviderRequest, res: ServerResponse, fault: Fault): Promise<void> {
    if (!this.admit(req, res, fault)) return;
    const body = req.body;
    const messages = body.messages as { content: string }[] | undefined;
    if (!Array.isArray(messages) || messages.length === 0) return this.error(res, 400, "Missing required parameter: 'messages'.");
    const usage = {
      prompt_tokens: messages.reduce((n, m) => n + words(String(m.content)), 0),
      completion_tokens: words(this.reply),
      total_tokens: 0,
    };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const id = 'chatcmpl-fake';
    const created = Math.floor(Date.now() / 1000);
    const model = String(body.model);
    if (body.stream !== true) {
      sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          { index: 0, message: { role: 'assistant', content: this.reply, refusal: null }, logprobs: null, finish_reason: 'stop' },
        ],
        usage,
      });
      return;
    }
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`;
    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const pieces = splitInto(this.reply, this.chunks).map((content) =>
      chunk([{ index: 0, delta: { content }, logprobs: null, finish_reason: null }], includeUsage ? { usage: null } : {}),
    );
    // The role comes first, in a delta of its own; the finish reason and the usage last.
    const opening = chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]);
    const closing = [chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }])];
    if (includeUsage) closing.push(chunk([], { usage }));
    const errorAfter = this.takeStreamError();
    if (errorAfter !== undefined) {
      // A failure once the stream is under way comes as a data line holding an error object.
      const failure = {
        error: {
          message: 'The server had an error while processing your request.',
          type: 'server_error',
          param: null,
          code: null,
        },
      };
      const cut = [opening, ...pieces.slice(0, errorAfter), `data: ${JSON.stringify(failure)}\n\n`];
      await writeStream(res, 'text/event-stream; charset=utf-8', cut, [], { kind: 'truncate' }, this.gapMs);
      return;
    }
    await writeStream(
      res,
      'text/event-stream; charset=utf-8',
      [opening, ...pieces, ...closing],
      ['data: [DONE]\n\n'],
      fault,
      this.gapMs,
    );
  }

  private embeddings(req: ProviderRequest, res: ServerResponse, fault: Fault): void {
    if (!this.admit(req, res, fault)) return;
    const input = req.body.input;
    const texts = typeof input === 'string' ? [input] : Array.isArray(input) ? (input as unknown[]).map(String) : undefined;
    if (texts === undefined || texts.length === 0) return this.error(res, 400, "'input' is a required property");
    const tokens = texts.reduce((n, t) => n + words(t), 0);
    sendJson(res, 200, {
      object: 'list',
      data: texts.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) })),
      model: req.body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  private images(req: ProviderRequest, res: ServerResponse, fault: Fault): void {
    if (!this.admit(req, res, fault)) return;
    if (typeof req.body.prompt !== 'string' || req.body.prompt === '')
      return this.error(res, 400, "'prompt' is a required property");
    const n = typeof req.body.n === 'number' ? req.body.n : 1;
    sendJson(res, 200, {
      created: Math.floor(Date.now() / 1000),
      data: Array.from({ length: n }, () => ({ b64_json: PNG_BASE64, revised_prompt: req.body.prompt })),
    });
  }
}
