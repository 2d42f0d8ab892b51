// A local stand-in for ComfyUI's HTTP API (server.py), on 127.0.0.1:0: GET /system_stats; POST
// /prompt {prompt: graph, client_id} answering {prompt_id, number, node_errors} (400 with
// {error: {type, message, details, extra_info}, node_errors} for a graph that is not one); GET
// /history/{prompt_id} answering {} while it runs and then the entry with its outputs and status;
// GET /view?filename=&subfolder=&type= answering the PNG.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Test } from 'tap';
import { PNG_BASE64 } from './openai.js';
import { ProviderFake, sendJson, type Fault, type ProviderRequest } from './provider-server.js';

type Graph = Record<string, { class_type?: unknown; inputs?: unknown }>;

export class FakeComfyUI extends ProviderFake {
  /** Each graph queued, in order. */
  readonly prompts: Graph[] = [];
  readonly promptIds: string[] = [];
  /** GET /history/{id} answers {} this many times before the entry appears. */
  polls: number;
  /** The next prompt's history reports an execution error. */
  failNext = false;
  private readonly pending = new Map<string, { left: number; fail: boolean; output: string }>();
  private readonly files = new Set<string>();
  private counter = 0;

  private constructor(polls: number) {
    super();
    this.polls = polls;
    this.server.route(
      'GET',
      '/system_stats',
      (_req, res) =>
        sendJson(res, 200, {
          system: { os: 'posix', python_version: '3.12.3', comfyui_version: '0.3.40', embedded_python: false },
          devices: [{ name: 'cpu', type: 'cpu', index: null, vram_total: 0, vram_free: 0 }],
        }),
      false,
    );
    this.server.route('POST', '/prompt', (req, res, fault) => this.queue(req, res, fault));
    this.server.route('GET', '/history/*', (req, res) => this.history(req, res), false);
    this.server.route('GET', '/view', (req, res) => this.view(req, res), false);
  }

  static async start(t: Test, options: { polls?: number } = {}): Promise<FakeComfyUI> {
    const fake = new FakeComfyUI(options.polls ?? 1);
    return ProviderFake.listening(fake, t);
  }

  private queue(req: ProviderRequest, res: ServerResponse, fault: Fault): void {
    if (fault.kind === 'status') return sendJson(res, fault.status, { error: fault.message ?? 'internal error' });
    const graph = (req.body as { prompt?: unknown }).prompt;
    const invalid = (type: string, message: string) =>
      sendJson(res, 400, { error: { type, message, details: '', extra_info: {} }, node_errors: {} });
    if (graph === null || typeof graph !== 'object' || Array.isArray(graph))
      return invalid('invalid_prompt', 'Invalid prompt: not a graph');
    const nodes = Object.entries(graph as Graph);
    if (nodes.some(([, n]) => typeof n?.class_type !== 'string' || typeof n.inputs !== 'object'))
      return invalid('invalid_prompt', 'Cannot execute because a node is missing the class_type property.');
    const output = nodes.find(([, n]) => n.class_type === 'SaveImage')?.[0];
    if (output === undefined) return invalid('prompt_no_outputs', 'Prompt has no outputs');
    const id = randomUUID();
    this.prompts.push(graph as Graph);
    this.promptIds.push(id);
    this.pending.set(id, { left: this.polls, fail: this.failNext, output });
    this.failNext = false;
    sendJson(res, 200, { prompt_id: id, number: this.counter++, node_errors: {} });
  }

  private history(req: ProviderRequest, res: ServerResponse): void {
    const id = decodeURIComponent(req.path.split('?')[0].slice('/history/'.length));
    const entry = this.pending.get(id);
    if (entry === undefined) return sendJson(res, 200, {});
    if (entry.left > 0) {
      entry.left--;
      return sendJson(res, 200, {});
    }
    if (entry.fail)
      return sendJson(res, 200, {
        [id]: {
          prompt: [0, id, {}, {}, [entry.output]],
          outputs: {},
          status: {
            status_str: 'error',
            completed: false,
            messages: [
              ['execution_error', { prompt_id: id, node_id: '3', node_type: 'KSampler', exception_message: 'out of memory' }],
            ],
          },
        },
      });
    const filename = `ComfyUI_${String(this.files.size + 1).padStart(5, '0')}_.png`;
    this.files.add(filename);
    sendJson(res, 200, {
      [id]: {
        prompt: [0, id, {}, {}, [entry.output]],
        outputs: { [entry.output]: { images: [{ filename, subfolder: '', type: 'output' }] } },
        status: { status_str: 'success', completed: true, messages: [] },
      },
    });
    entry.left = 0;
    this.files.add(filename);
  }

  private view(req: ProviderRequest, res: ServerResponse): void {
    const query = new URLSearchParams(req.path.split('?')[1] ?? '');
    const filename = query.get('filename') ?? '';
    if (!this.files.has(filename) || query.get('type') !== 'output') {
      res.writeHead(404).end();
      return;
    }
    const png = Buffer.from(PNG_BASE64, 'base64');
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
  }
}
