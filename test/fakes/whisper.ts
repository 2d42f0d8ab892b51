// A local stand-in for the whisper.cpp server (examples/server), on 127.0.0.1:0: GET /health answers
// {"status":"ok"} once the model is loaded and 503 {"status":"loading model"} before; POST /inference
// takes multipart/form-data with a `file` part (and temperature, response_format) and answers
// {"text": ...} (json), the bare text (text), or text with segments (verbose_json).
import type { ServerResponse } from 'node:http';
import type { Test } from 'tap';
import { ProviderFake, sendJson, type Fault, type ProviderRequest } from './provider-server.js';

export interface Upload {
  filename: string | undefined;
  contentType: string | undefined;
  fileBytes: number;
  fields: Record<string, string>;
}

interface Part {
  name: string;
  filename: string | undefined;
  contentType: string | undefined;
  data: Buffer;
}

/** Parses a multipart/form-data body (RFC 7578) into its parts. */
export function parseMultipart(body: Buffer, contentType: string): Part[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (boundary === null) throw new Error('no boundary');
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: Part[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const chunk = body.subarray(start + 2, next - 2); // past CRLF, before the CRLF that precedes the delimiter
    const split = chunk.indexOf('\r\n\r\n');
    const head = chunk.subarray(0, split).toString('utf8');
    const disposition = /content-disposition:[^\r\n]*/i.exec(head)?.[0] ?? '';
    parts.push({
      name: /\bname="([^"]*)"/.exec(disposition)?.[1] ?? '',
      filename: /\bfilename="([^"]*)"/.exec(disposition)?.[1],
      contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1],
      data: chunk.subarray(split + 4),
    });
    at = next;
  }
  return parts;
}

export class FakeWhisper extends ProviderFake {
  readonly uploads: Upload[] = [];
  transcript: string;
  /** While true, /health answers 503 as whisper.cpp does while its model loads. */
  loading = false;

  private constructor(transcript: string) {
    super();
    this.transcript = transcript;
    this.server.route(
      'GET',
      '/health',
      (_req, res) => (this.loading ? sendJson(res, 503, { status: 'loading model' }) : sendJson(res, 200, { status: 'ok' })),
      false,
    );
    this.server.route('POST', '/inference', (req, res, fault) => this.inference(req, res, fault));
  }

  static async start(t: Test, options: { transcript?: string } = {}): Promise<FakeWhisper> {
    const fake = new FakeWhisper(options.transcript ?? 'hello from the fake whisper');
    return ProviderFake.listening(fake, t);
  }

  private inference(req: ProviderRequest, res: ServerResponse, fault: Fault): void {
    if (fault.kind === 'status') return sendJson(res, fault.status, { error: fault.message ?? 'failed to process audio' });
    let parts: Part[];
    try {
      parts = parseMultipart(req.raw, String(req.headers['content-type'] ?? ''));
    } catch {
      return sendJson(res, 400, { error: "no 'file' field in the request" });
    }
    const file = parts.find((p) => p.name === 'file' && p.filename !== undefined);
    if (file === undefined) return sendJson(res, 400, { error: "no 'file' field in the request" });
    const fields = Object.fromEntries(
      parts.filter((p) => p.filename === undefined).map((p) => [p.name, p.data.toString('utf8')]),
    );
    this.uploads.push({ filename: file.filename, contentType: file.contentType, fileBytes: file.data.length, fields });
    const format = fields.response_format ?? 'json';
    if (format === 'text') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`${this.transcript}\n`);
      return;
    }
    if (format === 'verbose_json') {
      sendJson(res, 200, {
        task: 'transcribe',
        language: 'english',
        duration: 1.0,
        text: this.transcript,
        segments: [{ id: 0, text: this.transcript, start: 0, end: 1, tokens: [], temperature: 0 }],
      });
      return;
    }
    sendJson(res, 200, { text: this.transcript });
  }
}
