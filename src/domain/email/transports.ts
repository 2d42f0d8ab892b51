import type { Transporter } from 'nodemailer';
import { parseRetryAfter } from '../../backoff.js';
import { deadline } from '../../deadline.js';
import { formatMailbox } from './address.js';
import type { EmailTransport, OutgoingMail, SendResult } from './types.js';

const RESPONSE_LIMIT = 64 * 1024;

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code !== undefined && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
  }
  return String(err);
}

interface HttpTransportOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}

/**
 * The email provider's HTTP API: `POST {base}/emails`, Bearer key, JSON body. The outbox entry id
 * is the Idempotency-Key, so a re-send after a timeout or a crash is deduplicated by the provider.
 */
class HttpEmailTransport implements EmailTransport {
  readonly name = 'provider';
  private readonly endpoint: string;

  constructor(private readonly options: HttpTransportOptions) {
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/emails`;
  }

  async send(mail: OutgoingMail): Promise<SendResult> {
    const body = JSON.stringify({
      from: formatMailbox(mail.from),
      to: [mail.to],
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
    });
    const limit = deadline(this.options.timeoutMs);
    try {
      // Loaded on first send: a daemon that holds mail (or uses SMTP) never pays undici's memory.
      const { request } = await import('undici');
      const res = await request(this.endpoint, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': mail.id,
          'user-agent': 'switchyard',
        },
        body,
        // Mail is rare: no idle keep-alive sockets left behind.
        reset: true,
        signal: limit.signal,
      });
      const text = await readLimited(res.body);
      let parsed: Record<string, unknown> = {};
      try {
        const json: unknown = JSON.parse(text);
        if (json !== null && typeof json === 'object') parsed = json as Record<string, unknown>;
      } catch {
        // not JSON: the status decides
      }
      if (res.statusCode >= 200 && res.statusCode < 300) {
        return { ok: true, providerMessageId: typeof parsed.id === 'string' ? parsed.id : null, statusCode: res.statusCode };
      }
      const message = typeof parsed.message === 'string' ? parsed.message : text.slice(0, 200);
      const retryAfterMs =
        res.statusCode === 429 || res.statusCode === 503 ? parseRetryAfter(res.headers['retry-after']) : undefined;
      return {
        ok: false,
        error: `provider answered ${res.statusCode}${message === '' ? '' : `: ${message}`}`,
        statusCode: res.statusCode,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      };
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      return {
        ok: false,
        error: timedOut ? `provider timed out after ${this.options.timeoutMs} ms` : `provider request failed: ${errorText(err)}`,
        statusCode: null,
      };
    } finally {
      limit.clear();
    }
  }

  /** Nothing is held between sends: each request closes its connection (`reset: true`). */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

async function readLimited(body: AsyncIterable<Buffer | Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < RESPONSE_LIMIT) chunks.push(Buffer.from(chunk));
    size += chunk.length;
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_LIMIT).toString('utf8');
}

interface SmtpTransportOptions {
  url: string;
  timeoutMs: number;
}

/** SMTP via nodemailer (MIME, STARTTLS, auth). One connection per mail: invitations are rare. */
class SmtpEmailTransport implements EmailTransport {
  readonly name = 'smtp';
  private transporter: Transporter | undefined;

  constructor(private readonly options: SmtpTransportOptions) {}

  /** nodemailer is loaded on first send, so daemons that do not use SMTP never load it. */
  private async connect(): Promise<Transporter> {
    if (this.transporter !== undefined) return this.transporter;
    const { createTransport } = await import('nodemailer');
    // nodemailer parses `url` (smtp:// or smtps://, credentials included) into host, port and auth.
    this.transporter = createTransport({
      url: this.options.url,
      connectionTimeout: this.options.timeoutMs,
      greetingTimeout: this.options.timeoutMs,
      socketTimeout: this.options.timeoutMs,
    } as Parameters<typeof createTransport>[0]);
    return this.transporter;
  }

  async send(mail: OutgoingMail): Promise<SendResult> {
    const domain = mail.from.address.slice(mail.from.address.lastIndexOf('@') + 1);
    try {
      const transporter = await this.connect();
      const info = (await transporter.sendMail({
        // nodemailer encodes the name (RFC 2047) and quotes it; headerText already removed CR/LF.
        from: { name: mail.from.name, address: mail.from.address },
        to: mail.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        // A stable Message-ID per outbox entry lets receivers drop a re-sent duplicate.
        messageId: `<${mail.id}@${domain}>`,
      })) as { messageId?: string; response?: string };
      const code = /^(\d{3})/.exec(info.response ?? '')?.[1];
      return { ok: true, providerMessageId: info.messageId ?? null, statusCode: code === undefined ? null : Number(code) };
    } catch (err) {
      const responseCode = (err as { responseCode?: number }).responseCode;
      return {
        ok: false,
        error: `smtp send failed: ${errorText(err)}`,
        statusCode: typeof responseCode === 'number' ? responseCode : null,
      };
    }
  }

  close(): Promise<void> {
    this.transporter?.close();
    this.transporter = undefined;
    return Promise.resolve();
  }
}

export interface TransportSettings {
  emailProviderApiKey?: string;
  emailProviderBaseUrl: string;
  smtpUrl?: string;
}

/** SMTP when SERVICE_SMTP_URL is set, else the provider API when its key is set, else none (held). */
export function selectTransport(settings: TransportSettings, timeoutMs: number): EmailTransport | undefined {
  if (settings.smtpUrl !== undefined) return new SmtpEmailTransport({ url: settings.smtpUrl, timeoutMs });
  if (settings.emailProviderApiKey !== undefined)
    return new HttpEmailTransport({ baseUrl: settings.emailProviderBaseUrl, apiKey: settings.emailProviderApiKey, timeoutMs });
  return undefined;
}
