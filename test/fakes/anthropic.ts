// A local stand-in for the Anthropic Messages API, on 127.0.0.1:0, as its reference documents it:
// `x-api-key` and `anthropic-version` headers; GET /v1/models; POST /v1/messages answering a Message,
// or with `stream: true` the event sequence message_start, content_block_start, ping,
// content_block_delta (text_delta)..., content_block_stop, message_delta (stop_reason and the
// cumulative output_tokens), message_stop. Errors are `{type: "error", error: {type, message}}`,
// also sent mid-stream as `event: error`.
import type { ServerResponse } from 'node:http';
import type { Test } from 'tap';
import { splitInto, words } from './openai.js';
import { ChatFake, sendJson, writeStream, type ChatFakeOptions, type Fault, type ProviderRequest } from './provider-server.js';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const sse = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

export class FakeAnthropic extends ChatFake {
  apiKey: string;

  private constructor(options: ChatFakeOptions) {
    super({ models: ['claude-sonnet-4-5', 'claude-haiku-4-5'], reply: 'Hello from the fake Claude.' }, options);
    this.apiKey = options.apiKey ?? 'sk-ant-test-fake';
    this.server.route(
      'GET',
      '/v1/models',
      (req, res) => {
        if (this.admitted(req, res)) this.listModels(res);
      },
      false,
    );
    this.server.route('POST', '/v1/messages', (req, res, fault) => this.messages(req, res, fault));
  }

  static async start(t: Test, options: ChatFakeOptions = {}): Promise<FakeAnthropic> {
    const fake = new FakeAnthropic(options);
    return ChatFake.listening(fake, t);
  }

  /** ANTHROPIC_BASE_URL has no version path. */
  get baseUrl(): string {
    return this.server.url;
  }

  private error(res: ServerResponse, status: number, message: string, retryAfter?: string): void {
    const type = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    sendJson(
      res,
      status,
      { type: 'error', error: { type, message } },
      retryAfter === undefined ? {} : { 'retry-after': retryAfter },
    );
  }

  private admitted(req: ProviderRequest, res: ServerResponse): boolean {
    if (req.headers['x-api-key'] !== this.apiKey) {
      this.error(res, 401, 'invalid x-api-key');
      return false;
    }
    if (typeof req.headers['anthropic-version'] !== 'string') {
      this.error(res, 400, 'anthropic-version: header is required');
      return false;
    }
    return true;
  }

  private listModels(res: ServerResponse): void {
    const data = this.models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
    sendJson(res, 200, { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
  }

  private async messages(req: ProviderRequest, res: ServerResponse, fault: Fault): Promise<void> {
    if (!this.admitted(req, res)) return;
    if (fault.kind === 'status') return this.error(res, fault.status, fault.message ?? 'Overloaded', fault.retryAfter);
    const body = req.body as Record<string, unknown>;
    if (typeof body.model !== 'string') return this.error(res, 400, 'model: Field required');
    if (typeof body.max_tokens !== 'number') return this.error(res, 400, 'max_tokens: Field required');
    const messages = body.messages as { role: string; content: string }[] | undefined;
    if (!Array.isArray(messages) || messages.length === 0) return this.error(res, 400, 'messages: Field required');
    if (messages.some((m) => m.role === 'system'))
      return this.error(res, 400, 'messages: Unexpected role "system". Use the top-level `system` parameter');
    if (!this.models.includes(body.model)) return this.error(res, 404, `model: ${body.model}`);
    const inputTokens =
      messages.reduce((n, m) => n + words(String(m.content)), 0) + words(typeof body.system === 'string' ? body.system : '');
    const outputTokens = words(this.reply);
    const message = {
      id: 'msg_fake',
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [] as { type: string; text: string }[],
      stop_reason: null as string | null,
      stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: 1 },
    };
    if (body.stream !== true) {
      sendJson(res, 200, {
        ...message,
        content: [{ type: 'text', text: this.reply }],
        stop_reason: 'end_turn',
        usage: { input_tokens: inputTokens, output_tokens: outputTokens },
      });
      return;
    }
    const deltas = splitInto(this.reply, this.chunks).map((text) =>
      sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
    );
    const errorAfter = this.takeStreamError();
    const head = [
      sse('message_start', { message }),
      sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      sse('ping', {}),
    ];
    if (errorAfter !== undefined) {
      const pieces = [
        ...head,
        ...deltas.slice(0, errorAfter),
        sse('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }),
      ];
      await writeStream(res, 'text/event-stream; charset=utf-8', pieces, [], { kind: 'truncate' }, this.gapMs);
      return;
    }
    const tail = [
      sse('content_block_stop', { index: 0 }),
      sse('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: outputTokens } }),
    ];
    await writeStream(
      res,
      'text/event-stream; charset=utf-8',
      [...head, ...deltas, ...tail],
      [sse('message_stop', {})],
      fault,
      this.gapMs,
    );
  }
}
