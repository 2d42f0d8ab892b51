// The local speech-to-text server over whisper.cpp's server API: POST /inference (multipart) and GET /health.
import { randomBytes } from 'node:crypto';
import type { Adapter, AdapterResult } from '../types.js';
import { UpstreamFailure, type Upstream } from '../upstream.js';
import { unsupported } from './common.js';

const CONTENT_TYPES: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  webm: 'audio/webm',
};

/** A multipart/form-data body: fields, then one file part. */
function multipart(fields: Record<string, string>, file: { name: string; filename: string; type: string; bytes: Buffer }) {
  const boundary = `----switchyard${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\ncontent-type: ${file.type}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function createWhisperAdapter(upstream: Upstream): Adapter {
  return {
    name: 'whisper',
    kind: 'local speech-to-text server',
    tier: 'basic',
    modalities: ['audio'],
    streaming: null,
    costs: { audio: 0 },
    defaultModel: () => 'whisper',

    async probe(signal) {
      // 200 {"status":"ok"} once the model is loaded; 503 while it loads.
      await upstream.json<unknown>({ method: 'GET', path: '/health', signal });
      return { models: [] };
    },

    async execute(call): Promise<AdapterResult> {
      if (call.modality !== 'audio') throw unsupported('whisper', call.modality);
      const format = String(call.input.format);
      const fields: Record<string, string> = { response_format: 'json' };
      if (typeof call.params.temperature === 'number') fields.temperature = String(call.params.temperature);
      const { body, contentType } = multipart(fields, {
        name: 'file',
        filename: `audio.${format}`,
        type: CONTENT_TYPES[format] ?? 'application/octet-stream',
        bytes: Buffer.from(String(call.input.audio_base64), 'base64'),
      });
      const answer = await upstream.json<{ text?: string; error?: string }>({
        method: 'POST',
        path: '/inference',
        headers: { 'content-type': contentType },
        body,
        signal: call.signal,
      });
      if (typeof answer.error === 'string') throw new UpstreamFailure(upstream.scrub(answer.error), false, 'protocol');
      if (typeof answer.text !== 'string') throw new UpstreamFailure('whisper answered without text', false, 'protocol');
      return { model: call.model, output: { text: answer.text.trim() }, usage: { input_tokens: 0, output_tokens: 0 } };
    },
  };
}
