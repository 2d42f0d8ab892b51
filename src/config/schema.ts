import { z } from 'zod';

// Every option in one table: its typed schema (with the default), its environment variable
// (also its key in a --config JSON file), the serve flag that sets it, one line of docs, and for a
// feature not built yet, that feature (`planned`). The README's tables are checked against it.

const positiveInt = z.coerce
  .number()
  .int()
  .min(1)
  .max(2 ** 31 - 1);
const ms = (fallback: number) => positiveInt.default(fallback);
/** A period never given to a timer (a retention), so past setTimeout's 2^31 - 1 ms (24.8 days): up to 10 years. */
const longMs = (fallback: number) => z.coerce.number().int().min(1).max(315_360_000_000).default(fallback);
const flag01 = z
  .union([z.boolean(), z.enum(['0', '1', 'true', 'false'])])
  .default(false)
  .transform((v) => v === true || v === '1' || v === 'true');
const optionalString = z.string().min(1).optional();
const optionalUrl = z.url({ protocol: /^https?$/ }).optional();

const hostPort = z
  .string()
  .regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/, 'expected host:port')
  .refine((v) => {
    const port = Number(v.slice(v.lastIndexOf(':') + 1));
    return port >= 0 && port <= 65535;
  }, 'port must be 0-65535');

/** The host part of a validated host:port, without IPv6 brackets. */
export function hostOf(addr: string): string {
  return addr.slice(0, addr.lastIndexOf(':')).replace(/^\[|\]$/g, '');
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost`: addresses only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

const msList = (fallback: number[]) =>
  z
    .union([z.string(), z.array(z.number())])
    .default(fallback)
    .transform((v, ctx) => {
      const parts = Array.isArray(v)
        ? v
        : v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
            .map(Number);
      if (parts.length === 0 || parts.some((n) => !Number.isInteger(n) || n < 1 || n > 2 ** 31 - 1)) {
        ctx.addIssue({ code: 'custom', message: 'expected a comma-separated list of positive millisecond values' });
        return z.NEVER;
      }
      return parts;
    });

/** `name=ms,name=ms` (or a JSON object): a value per provider, for the providers it names. */
const perProviderMs = z
  .union([z.string(), z.record(z.string(), z.number())])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    const entries =
      typeof v === 'string'
        ? v
            .split(',')
            .filter((p) => p.trim() !== '')
            .map((p) => p.split('='))
        : Object.entries(v);
    const out: Record<string, number> = {};
    for (const entry of entries as unknown[][]) {
      const [name, value] = entry;
      const n = Number(value);
      if (entry.length !== 2 || !/^[a-z]+$/.test(String(name).trim()) || !Number.isInteger(n) || n < 1 || n > 2 ** 31 - 1) {
        ctx.addIssue({
          code: 'custom',
          message: 'expected provider=milliseconds pairs, comma-separated (ollama=300000,comfyui=600000)',
        });
        return z.NEVER;
      }
      out[String(name).trim()] = n;
    }
    return out;
  });

interface OptionExtra {
  flag?: string;
  /** Never logged; the README marks it. */
  secret?: boolean;
  /**
   * The feature, not built yet, that will read this setting: the value is validated, then ignored
   * (`serve` warns when one is set; the README lists these apart).
   */
  planned?: string;
}
interface OptionSpec<S extends z.ZodType> extends OptionExtra {
  schema: S;
  env: string;
  doc: string;
}
const opt = <S extends z.ZodType>(schema: S, env: string, doc: string, extra: OptionExtra = {}): OptionSpec<S> => ({
  schema,
  env,
  doc,
  ...extra,
});

export const optionSpecs = {
  env: opt(
    z.enum(['development', 'production']).default('development'),
    'SERVICE_ENV',
    '`production` blocks the development principal and makes missing required secrets fatal',
  ),
  dataDir: opt(z.string().min(1).default('./data'), 'SERVICE_DATA_DIR', 'LevelDB and the admin socket live here', {
    flag: 'data-dir',
  }),
  dataDirAllowShared: opt(
    flag01,
    'SERVICE_DATA_DIR_ALLOW_SHARED',
    '1 lets the daemon use a data directory that other users can read (by default it must be 0700)',
  ),
  httpAddr: opt(hostPort.default('127.0.0.1:8400'), 'SERVICE_HTTP_ADDR', 'HTTP listen address (port 0 picks a free port)', {
    flag: 'http-addr',
  }),
  grpcSocket: opt(optionalString, 'SERVICE_GRPC_SOCKET', 'gRPC admin Unix socket, mode 0600 (default <data dir>/admin.sock)', {
    flag: 'grpc-socket',
  }),
  grpcSocketCheckMs: opt(
    ms(5_000),
    'SERVICE_GRPC_SOCKET_CHECK_MS',
    'how often the daemon checks that its admin socket file exists, and re-creates it when it was deleted',
  ),
  grpcAddr: opt(
    hostPort.optional(),
    'SERVICE_GRPC_ADDR',
    'optional TCP gRPC listener; refused unless SERVICE_ADMIN_TOKEN is set',
    { flag: 'grpc-addr' },
  ),
  adminToken: opt(
    z.string().min(16, 'must be at least 16 characters').optional(),
    'SERVICE_ADMIN_TOKEN',
    'bearer token for gRPC over TCP',
    { secret: true },
  ),
  publicUrl: opt(optionalUrl, 'SERVICE_PUBLIC_URL', 'absolute base for invitation accept links (default http://<http addr>)', {
    flag: 'public-url',
  }),
  logLevel: opt(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    'SERVICE_LOG_LEVEL',
    'pino log level',
    { flag: 'log-level' },
  ),
  logFormat: opt(
    z.enum(['pretty', 'json']).optional(),
    'SERVICE_LOG_FORMAT',
    '`pretty` (coloured lines for people) or `json` (one object a line); unset: pretty when stdout is a terminal, else json',
    { flag: 'log-format' },
  ),
  shutdownTimeoutMs: opt(
    ms(10_000),
    'SERVICE_SHUTDOWN_TIMEOUT_MS',
    'how long shutdown waits for each of its steps: in-flight requests, loops, closing the areas, the storage',
  ),
  dev: opt(flag01, 'SERVICE_DEV', '1: on first start create organization `dev` with an owner key (same as `serve --dev`)', {
    flag: 'dev',
  }),

  jwtSecret: opt(
    z.string().min(32, 'must be at least 32 characters').optional(),
    'JWT_SECRET',
    'HS256 verification secret; unset means JWTs are refused',
    { secret: true },
  ),
  jwtIssuer: opt(optionalString, 'SERVICE_JWT_ISSUER', 'when set, a JWT `iss` must match'),
  jwtAudience: opt(optionalString, 'SERVICE_JWT_AUDIENCE', 'when set, a JWT `aud` must match'),
  jwtEmailClaim: opt(
    z.string().min(1).default('email'),
    'SERVICE_JWT_EMAIL_CLAIM',
    "the JWT claim holding the email (`<claim>_verified: true` marks it verified) that binds an invitee's principal to its `sub`",
  ),

  emailProviderApiKey: opt(
    z
      .string()
      .regex(/^re_\S+$/, 'must start with re_')
      .optional(),
    'EMAIL_PROVIDER_API_KEY',
    'transactional email provider key (`re_...`); required in production unless SERVICE_SMTP_URL is set',
    { secret: true },
  ),
  emailProviderBaseUrl: opt(
    z.url({ protocol: /^https?$/ }).default('https://api.resend.com'),
    'EMAIL_PROVIDER_BASE_URL',
    'email provider API base; mail is POSTed to {base}/emails',
  ),
  smtpUrl: opt(
    z.url({ protocol: /^smtps?$/ }).optional(),
    'SERVICE_SMTP_URL',
    '`smtp://user:pass@host:port`: send mail over SMTP instead',
    { secret: true },
  ),
  emailFrom: opt(
    z.string().min(3).default('Switchyard <no-reply@switchyard.localhost>'),
    'SERVICE_EMAIL_FROM',
    'sender address of invitation mail',
  ),
  inviteTokenKey: opt(
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
      .optional(),
    'SERVICE_INVITE_TOKEN_KEY',
    'HMAC key for invitation tokens; generated and persisted when unset',
    { secret: true },
  ),
  inviteRedirectUrl: opt(optionalUrl, 'SERVICE_INVITE_REDIRECT_URL', 'redirect target after accept'),
  webhookAllowPrivate: opt(flag01, 'SERVICE_WEBHOOK_ALLOW_PRIVATE', '1 lets webhook URLs reach loopback and private addresses'),
  assetSigningKey: opt(
    z.string().min(32, 'must be at least 32 characters').optional(),
    'SERVICE_ASSET_SIGNING_KEY',
    'HMAC key for signed asset URLs; generated and persisted when unset',
    { secret: true },
  ),
  backupKey: opt(
    z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -base64 32)').optional(),
    'SERVICE_BACKUP_KEY',
    'key that encrypts and authenticates backups (AES-256-GCM); a restore without it refuses an encrypted backup',
    { secret: true },
  ),
  databaseUrl: opt(
    z.url({ protocol: /^postgres(ql)?$/, message: 'expected a postgres:// URL' }).optional(),
    'SERVICE_DATABASE_URL',
    '`postgres://...`: use PostgreSQL instead of the embedded LevelDB',
    { secret: true },
  ),
  databasePoolSize: opt(
    positiveInt.default(10),
    'SERVICE_DATABASE_POOL_SIZE',
    'PostgreSQL only: connections each daemon keeps in its pool',
  ),
  databaseConnectTimeoutMs: opt(
    ms(10_000),
    'SERVICE_DATABASE_CONNECT_TIMEOUT_MS',
    'PostgreSQL only: how long a request waits for a pool connection; past it 503 `unavailable` with Retry-After',
  ),
  storageSync: opt(
    z.enum(['on', 'off']).default('off'),
    'SERVICE_STORAGE_SYNC',
    'LevelDB only: `on` makes every commit durable across power loss (group commit)',
  ),
  devAllowRemote: opt(flag01, 'SERVICE_DEV_ALLOW_REMOTE', '1 lets development mode listen on a non-loopback address'),
  httpMaxConnections: opt(
    positiveInt.default(10_000),
    'SERVICE_HTTP_MAX_CONNECTIONS',
    'open HTTP connections at most; past it a new connection is closed at once',
  ),
  httpMaxConnectionsPerAddress: opt(
    positiveInt.default(1000),
    'SERVICE_HTTP_MAX_CONNECTIONS_PER_ADDRESS',
    'open HTTP connections from one client address at most; past it a new one from there is closed at once (behind a reverse proxy every client has its address: raise it)',
  ),
  httpHeadersTimeoutMs: opt(
    ms(20_000),
    'SERVICE_HTTP_HEADERS_TIMEOUT_MS',
    'a request must send its headers within this, else 408 and the connection closes (a silent one too); a whole request gets 60 s (or this if longer), an idle keep-alive connection 5 s',
  ),
  maxGrantsPerPrincipal: opt(
    positiveInt.default(1000),
    'SERVICE_MAX_GRANTS_PER_PRINCIPAL',
    'ACL grants one principal may hold in one organization; past it 422',
  ),
  orgCreatePerHour: opt(
    positiveInt.default(10),
    'SERVICE_ORG_CREATE_PER_HOUR',
    'organizations one principal may create per hour over /v1 (the operator is not limited); past it 429',
  ),
  invitePerRecipientPerHour: opt(
    positiveInt.default(5),
    'SERVICE_INVITE_PER_RECIPIENT_PER_HOUR',
    'invitation mails (creates and resends) one address may receive per hour, all organizations together; past it 429',
  ),
  inviteAcceptConfirm: opt(
    flag01,
    'SERVICE_INVITE_ACCEPT_CONFIRM',
    "1: the accept link's GET answers a page whose button POSTs the acceptance (mail scanners cannot accept)",
  ),
  jwtMaxAgeS: opt(
    positiveInt.optional(),
    'SERVICE_JWT_MAX_AGE_S',
    'when set, a JWT needs `iat` and may be at most this many seconds old (`iat` at most 30 s ahead)',
  ),
  grpcTlsCert: opt(optionalString, 'SERVICE_GRPC_TLS_CERT', 'PEM certificate file: serve the TCP admin listener over TLS'),
  grpcTlsKey: opt(optionalString, 'SERVICE_GRPC_TLS_KEY', 'PEM private key file of SERVICE_GRPC_TLS_CERT'),
  metricsAddr: opt(
    hostPort.optional(),
    'SERVICE_METRICS_ADDR',
    'host:port of a separate listener for Prometheus `/metrics` (unset: none)',
  ),

  inviteTtlMs: opt(ms(604_800_000), 'SERVICE_INVITE_TTL_MS', 'invitation lifetime (7 days)'),
  inviteExpirySweepMs: opt(ms(600_000), 'SERVICE_INVITE_EXPIRY_SWEEP_MS', 'invitation expiry job period'),
  outboxPollMs: opt(ms(10_000), 'SERVICE_OUTBOX_POLL_MS', 'email outbox poll period'),
  outboxRetryDelaysMs: opt(
    msList([60_000, 300_000, 1_800_000]),
    'SERVICE_OUTBOX_RETRY_DELAYS_MS',
    'comma list: the delay before each email retry',
  ),
  webhookTimeoutMs: opt(ms(10_000), 'SERVICE_WEBHOOK_TIMEOUT_MS', 'webhook per-attempt timeout'),
  webhookRetryBaseMs: opt(ms(30_000), 'SERVICE_WEBHOOK_RETRY_BASE_MS', 'webhook backoff base'),
  webhookMaxPerOrganization: opt(
    positiveInt.default(100),
    'SERVICE_WEBHOOK_MAX_PER_ORG',
    'live webhooks one organization may have: the default and server maximum of the organization setting `max_webhooks`; past it creation is 422',
  ),
  workflowLeaseMs: opt(
    ms(30_000),
    'SERVICE_WORKFLOW_LEASE_MS',
    "a running workflow run's lease: another daemon resumes the run this long after its daemon died",
  ),
  workflowPollMs: opt(ms(1_000), 'SERVICE_WORKFLOW_POLL_MS', 'the run executor looks for work at least this often'),
  workflowScheduleTickMs: opt(
    ms(1_000),
    'SERVICE_WORKFLOW_SCHEDULE_TICK_MS',
    'the schedule loop looks for due workflow schedules at least this often',
  ),
  runWaitTimeoutMs: opt(
    ms(604_800_000),
    'SERVICE_RUN_WAIT_TIMEOUT_MS',
    'the longest a workflow run may wait for input (7 days) before it fails `expired`: the default and ceiling of the organization setting `run_wait_timeout_seconds`',
  ),
  runWaitSweepMs: opt(
    ms(60_000),
    'SERVICE_RUN_WAIT_SWEEP_MS',
    'the waiting-run expiry loop looks at least this often (and when the next run falls due)',
  ),
  runStreamsPerPrincipal: opt(
    positiveInt.default(20),
    'SERVICE_RUN_STREAMS_PER_PRINCIPAL',
    'live run event streams one principal may hold open on one daemon; past it 429',
  ),
  runStreamsPerOrg: opt(
    positiveInt.default(200),
    'SERVICE_RUN_STREAMS_PER_ORG',
    "live run event streams open on one organization's runs on one daemon; past it 429",
  ),
  runStreamPollMs: opt(
    ms(10_000),
    'SERVICE_RUN_STREAM_POLL_MS',
    "a live run stream also reads its run's events this often without a wake-up (a lost notification)",
  ),
  runStreamRecheckMs: opt(
    ms(500),
    'SERVICE_RUN_STREAM_RECHECK_MS',
    'a live run stream checks its credentials and access this often; refused, it ends',
  ),
  providerHealthIntervalMs: opt(ms(30_000), 'SERVICE_PROVIDER_HEALTH_INTERVAL_MS', 'active provider health probe period'),
  providerConnectTimeoutMs: opt(ms(5_000), 'SERVICE_PROVIDER_CONNECT_TIMEOUT_MS', 'provider connect timeout'),
  providerTimeoutMs: opt(
    ms(120_000),
    'SERVICE_PROVIDER_TIMEOUT_MS',
    'provider call timeout: to the first byte, and at most this long between two pieces of an answer',
  ),
  providerTimeoutsMs: opt(
    perProviderMs,
    'SERVICE_PROVIDER_TIMEOUTS_MS',
    'per-provider call timeouts over SERVICE_PROVIDER_TIMEOUT_MS: name=ms pairs, e.g. ollama=300000,comfyui=600000',
  ),
  providerConnectTimeoutsMs: opt(
    perProviderMs,
    'SERVICE_PROVIDER_CONNECT_TIMEOUTS_MS',
    'per-provider connect timeouts over SERVICE_PROVIDER_CONNECT_TIMEOUT_MS: name=ms pairs',
  ),
  providerMaxAnswerBytes: opt(
    positiveInt.default(33_554_432),
    'SERVICE_PROVIDER_MAX_ANSWER_BYTES',
    "a provider answer's body at most (32 MiB), whole or streamed; past it the call fails with 502 (an error answer is read 8 KiB at most)",
  ),
  providerBreakerCooldownMs: opt(
    ms(10_000),
    'SERVICE_PROVIDER_BREAKER_COOLDOWN_MS',
    'once its breaker opens, a provider is unhealthy until a probe this much later succeeds',
  ),
  providerBreakerWindowMs: opt(
    ms(30_000),
    'SERVICE_PROVIDER_BREAKER_WINDOW_MS',
    "the breaker's sliding window: the calls of this last span count",
  ),
  providerBreakerMinCalls: opt(
    positiveInt.default(5),
    'SERVICE_PROVIDER_BREAKER_MIN_CALLS',
    'calls in the window before their failure rate can open the breaker',
  ),
  providerBreakerFailurePercent: opt(
    positiveInt.max(100).default(50),
    'SERVICE_PROVIDER_BREAKER_FAILURE_PERCENT',
    'the breaker opens when at least this percent of the calls in the window failed retriably',
  ),
  comfyuiPollMs: opt(ms(500), 'SERVICE_COMFYUI_POLL_MS', 'how often a queued ComfyUI graph is polled'),
  assetRetentionMs: opt(ms(259_200_000), 'SERVICE_ASSET_RETENTION_MS', 'workflow asset retention (72 hours)'),
  assetSweepMs: opt(ms(600_000), 'SERVICE_ASSET_SWEEP_MS', 'asset retention sweep period'),
  jobRetentionMs: opt(
    longMs(2_592_000_000),
    'SERVICE_JOB_RETENTION_MS',
    'a finished job (completed, failed or cancelled) is kept this long (30 days) after it ended, then removed with its input, output and assets',
  ),
  jobSweepMs: opt(ms(600_000), 'SERVICE_JOB_SWEEP_MS', 'finished job purge period'),
  portalKeepEndedMs: opt(
    ms(86_400_000),
    'SERVICE_PORTAL_KEEP_ENDED_MS',
    "a portal session's record (its link's too) is kept this long (1 day) after it ended, then removed",
  ),
  portalSweepMs: opt(ms(600_000), 'SERVICE_PORTAL_SWEEP_MS', 'ended portal session sweep period'),

  openaiApiKey: opt(optionalString, 'OPENAI_API_KEY', 'registers the `openai` provider', { secret: true }),
  openaiBaseUrl: opt(
    z.url({ protocol: /^https?$/ }).default('https://api.openai.com/v1'),
    'OPENAI_BASE_URL',
    'OpenAI-compatible base URL, version path included',
  ),
  anthropicApiKey: opt(optionalString, 'ANTHROPIC_API_KEY', 'registers the `anthropic` provider', { secret: true }),
  anthropicBaseUrl: opt(
    z.url({ protocol: /^https?$/ }).default('https://api.anthropic.com'),
    'ANTHROPIC_BASE_URL',
    'Anthropic base URL, without the version path',
  ),
  ollamaHost: opt(optionalString, 'OLLAMA_HOST', 'registers `ollama`: a URL or host:port'),
  ollamaEnabled: opt(flag01, 'SERVICE_OLLAMA_ENABLED', '1 registers `ollama` at http://127.0.0.1:11434'),
  whisperUrl: opt(optionalUrl, 'SERVICE_WHISPER_URL', 'registers `whisper` (whisper.cpp server)'),
  comfyuiUrl: opt(optionalUrl, 'SERVICE_COMFYUI_URL', 'registers `comfyui`'),
  comfyuiEnabled: opt(flag01, 'SERVICE_COMFYUI_ENABLED', '1 registers `comfyui` at http://127.0.0.1:8188'),
  ggufModelDir: opt(optionalString, 'SERVICE_GGUF_MODEL_DIR', 'registers `gguf` (optional dependency)'),
  ggufThreads: opt(
    positiveInt.optional(),
    'SERVICE_GGUF_THREADS',
    'CPU threads a `gguf` generation uses (default: half the cores, at least 1)',
  ),
  transformersModelDir: opt(optionalString, 'SERVICE_TRANSFORMERS_MODEL_DIR', 'registers `transformers` (optional dependency)'),
};

type Specs = typeof optionSpecs;
export type OptionKey = keyof Specs;

export const configSchema = z
  .object(
    Object.fromEntries(Object.entries(optionSpecs).map(([k, s]) => [k, s.schema])) as { [K in OptionKey]: Specs[K]['schema'] },
  )
  .strict()
  .superRefine((c, ctx) => {
    if (c.grpcAddr !== undefined && c.adminToken === undefined) {
      ctx.addIssue({ code: 'custom', path: ['grpcAddr'], message: 'a TCP gRPC listener needs SERVICE_ADMIN_TOKEN' });
    }
    if (c.env === 'production' && c.emailProviderApiKey === undefined && c.smtpUrl === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['emailProviderApiKey'],
        message: 'production needs an email transport: set EMAIL_PROVIDER_API_KEY or SERVICE_SMTP_URL',
      });
    }
    if ((c.grpcTlsCert === undefined) !== (c.grpcTlsKey === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [c.grpcTlsCert === undefined ? 'grpcTlsCert' : 'grpcTlsKey'],
        message: 'SERVICE_GRPC_TLS_CERT and SERVICE_GRPC_TLS_KEY go together',
      });
    }
    // Development honours X-Principal-Id (anyone may act as anyone): it stays on this machine.
    if (c.env === 'development' && !c.devAllowRemote && !isLoopbackHost(hostOf(c.httpAddr))) {
      ctx.addIssue({
        code: 'custom',
        path: ['httpAddr'],
        message: `${c.httpAddr} is not a loopback address, and development mode lets any caller act as anyone (X-Principal-Id): listen on 127.0.0.1, or set SERVICE_ENV=production, or SERVICE_DEV_ALLOW_REMOTE=1`,
      });
    }
    if (c.env === 'production' && c.dev) {
      ctx.addIssue({ code: 'custom', path: ['dev'], message: '--dev is not allowed when SERVICE_ENV=production' });
    }
    // Links the daemon mails out must name the address users reach it by, not its listener (contract 2).
    if (c.env === 'production' && c.publicUrl === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['publicUrl'],
        message:
          'production needs SERVICE_PUBLIC_URL: the absolute base of the links it hands out (e.g. https://switchyard.example.com)',
      });
    }
  });

type ParsedConfig = z.output<typeof configSchema>;

/** Where a setting's value comes from (contract 2: flag > environment > config file > default). */
export type ConfigSource = 'flag' | 'env' | 'file' | 'default';

/** The resolved configuration the daemon runs with. */
export interface Config extends ParsedConfig {
  grpcSocket: string;
  /** Where each setting's value came from (`switchyard config show`). */
  origins: Readonly<Record<OptionKey, ConfigSource>>;
}
