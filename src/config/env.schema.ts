import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
  validateSync,
} from 'class-validator';
import { isTrustedProxyList } from './trusted-proxies.js';
import { invalidCidrs } from './cidr.js';

// Reads the raw string: implicit conversion would already have turned "false" into true.
const toBool = ({ obj, key }: { obj: Record<string, unknown>; key: string }) => {
  const raw = obj[key];
  if (typeof raw !== 'string') return raw;
  if (['1', 'true', 'on', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'off', 'no'].includes(raw.toLowerCase())) return false;
  return raw;
};

// "off" disables the listener; digits are a port (the union type gets no implicit conversion).
const toPortOrOff = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value);

/**
 * Every environment variable the service reads. Defaults are the initialisers; `.env.example` lists them all.
 * This class is the only place that knows the raw names.
 */
export class EnvironmentVariables {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string = 'postgres://agent_service:agent_service@127.0.0.1:5432/agent_service';

  /** Connections per process; unset = derived from PostgreSQL's max_connections and DATABASE_EXPECTED_PROCESSES. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE?: number = undefined;

  /** How many service processes (API replicas + workers) share this PostgreSQL: the pool is sized so that all fit. */
  @IsInt()
  @Min(1)
  @Max(10000)
  DATABASE_EXPECTED_PROCESSES: number = 5;

  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL: string = 'redis://127.0.0.1:6379/0';

  /** Prefix for every Redis key (rate limits, replay buffers, Bull queues). */
  @Matches(/^[a-zA-Z0-9:_-]{1,64}$/)
  REDIS_KEY_PREFIX: string = 'agents';

  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 3000;

  @IsString()
  @MinLength(1)
  HOST: string = '127.0.0.1';

  /** Prometheus `/metrics` listener, apart from the public port (API and worker each serve their own); `0` = ephemeral, `off` = none. */
  @Transform(toPortOrOff)
  @ValidateIf((env: EnvironmentVariables) => env.METRICS_PORT !== 'off')
  @IsInt({ message: 'METRICS_PORT must be a port number or off' })
  @Min(0)
  @Max(65535)
  METRICS_PORT: number | 'off' = 9464;

  @IsString()
  @MinLength(1)
  METRICS_HOST: string = '127.0.0.1';

  /** When set, the metrics listener requires `Authorization: Bearer <METRICS_TOKEN>`. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters' })
  METRICS_TOKEN?: string = undefined;

  /**
   * The load balancers whose `X-Forwarded-For` entries are believed (docs/operations.md, "Behind a load balancer"):
   * comma-separated addresses, CIDRs or `loopback`/`linklocal`/`uniquelocal`; `false` = none. The client address is
   * the right-most entry that is not one of them. `true` (deprecated) trusts whatever peer connects, one hop.
   */
  @Transform(toBool)
  @ValidateBy({
    name: 'trustedProxies',
    validator: {
      validate: (value: unknown) => typeof value === 'boolean' || (typeof value === 'string' && isTrustedProxyList(value)),
      defaultMessage: () =>
        "TRUST_PROXY must be false, or the balancers' addresses or CIDRs separated by commas (e.g. 10.0.0.0/8,127.0.0.1)",
    },
  })
  TRUST_PROXY: boolean | string = false;

  /** Signs access tokens. Required in production; elsewhere, unset means a random secret per process (no built-in one). */
  @ValidateIf((env: EnvironmentVariables) => env.NODE_ENV === 'production' || env.JWT_SECRET !== undefined)
  @IsString({ message: 'JWT_SECRET is required in production: set it to a random string, e.g. `openssl rand -base64 48`' })
  @MinLength(32, { message: 'JWT_SECRET must be at least 32 characters' })
  JWT_SECRET?: string = undefined;

  /**
   * Keys that encrypt stored secrets (webhook signing secrets; docs/security.md, "Encryption at rest"):
   * `id:base64-of-32-bytes`, comma-separated; the first seals, every one opens. Unset = a key derived from JWT_SECRET
   * (id `jwt`), which also keeps opening what it sealed after keys are set. Generate one with `openssl rand -base64 32`.
   */
  @IsOptional()
  @ValidateBy({
    name: 'encryptionKeys',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && parseEncryptionKeys(value) !== undefined,
      defaultMessage: () =>
        'ENCRYPTION_KEYS must be comma-separated id:key pairs, ids of 1-32 letters, digits, _ or - (not "jwt", each once), keys 32 bytes in base64',
    },
  })
  ENCRYPTION_KEYS?: string = undefined;

  @IsInt()
  @Min(60)
  @Max(86400)
  TOKEN_TTL_SECONDS: number = 3600;

  /**
   * How long a cached credential is trusted before it is re-read. Revocations do not wait for it: they are
   * broadcast to every instance (PostgreSQL NOTIFY); this only bounds what a lost broadcast could leave behind.
   */
  @IsInt()
  @Min(0)
  @Max(5000)
  CREDENTIAL_CACHE_TTL_MS: number = 4000;

  /** The credential cache TTL while this instance does not hear the broadcast (its listener is reconnecting). */
  @IsInt()
  @Min(0)
  @Max(1000)
  CREDENTIAL_CACHE_FALLBACK_TTL_MS: number = 500;

  /** Password login: failed attempts per account (email) per window before it is refused with 429. */
  @IsInt()
  @Min(1)
  @Max(10000)
  LOGIN_MAX_FAILURES_PER_ACCOUNT: number = 10;

  /** Password login: failed attempts per client IP per window (any account) before it is refused with 429. */
  @IsInt()
  @Min(1)
  @Max(100000)
  LOGIN_MAX_FAILURES_PER_IP: number = 50;

  @IsInt()
  @Min(1)
  @Max(86400)
  LOGIN_FAILURE_WINDOW_SECONDS: number = 900;

  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'BOOTSTRAP_ORG_API_KEY must be at least 16 characters' })
  BOOTSTRAP_ORG_API_KEY?: string = undefined;

  @IsString()
  @MinLength(1)
  BOOTSTRAP_ORG_NAME: string = 'default';

  @Matches(/^$|^(\/[a-zA-Z0-9._~-]+)+$/, { message: 'BASE_PATH must be empty or like /api (no trailing slash)' })
  BASE_PATH: string = '';

  /** HTTP-date announced in the Sunset header of the legacy base path. */
  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  LEGACY_PATH_SUNSET: string = '2027-06-30';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** This process's name in logs and `agent_build_info` (e.g. the pod name); unset = `<hostname>:<pid>`. */
  @IsOptional()
  @Matches(/^[\w.:@-]{1,128}$/, { message: 'INSTANCE_NAME must be 1-128 letters, digits or . _ : @ -' })
  INSTANCE_NAME?: string = undefined;

  /** The source commit of this build (the image sets it from a build argument); unset = `unknown`. */
  @IsOptional()
  @Matches(/^[0-9a-f]{7,40}$/, { message: 'BUILD_COMMIT must be a git commit hash (7-40 lowercase hex digits)' })
  BUILD_COMMIT?: string = undefined;

  @Transform(toBool)
  @IsBoolean()
  MIGRATE_ON_START: boolean = true;

  /**
   * SIGTERM: how long readiness answers 503 while requests are still served, before the listener closes (balancers
   * and Kubernetes stop routing here meanwhile). The worker does not wait. docs/operations.md, "Shutdown and drain".
   */
  @IsInt()
  @Min(0)
  @Max(300000)
  SHUTDOWN_DRAIN_MS: number = 5000;

  /** After the drain: how long in-flight requests, streams and jobs may take before the process exits anyway. */
  @IsInt()
  @Min(1000)
  @Max(600000)
  SHUTDOWN_TIMEOUT_MS: number = 25000;

  /** `off` on API replicas when queue processors run in separate `npm run worker` processes. */
  @IsIn(['on', 'off'])
  WORKERS: 'on' | 'off' = 'on';

  /** Requests per credential per window; 0 disables rate limiting. */
  @IsInt()
  @Min(0)
  RATE_LIMIT_MAX: number = 6000;

  @IsInt()
  @Min(1)
  @Max(3600)
  RATE_LIMIT_WINDOW_SECONDS: number = 60;

  /** Comma-separated origins allowed to call the management surface from a browser; empty = none. */
  @IsString()
  CORS_MANAGEMENT_ORIGINS: string = '';

  @IsInt()
  @Min(1)
  @Max(86400)
  BUNDLE_CACHE_TTL_SECONDS: number = 300;

  @IsOptional()
  @IsString()
  OPENAI_API_KEY?: string = undefined;

  @IsOptional()
  @Matches(/^https?:\/\//)
  OPENAI_BASE_URL?: string = undefined;

  @IsOptional()
  @IsString()
  ANTHROPIC_API_KEY?: string = undefined;

  @IsOptional()
  @Matches(/^https?:\/\//)
  ANTHROPIC_BASE_URL?: string = undefined;

  @IsInt()
  @Min(100)
  @Max(600000)
  PROVIDER_TIMEOUT_MS: number = 30000;

  /** Agent mode (docs/agents.md): a whole turn's time, every model and tool call included; then the fallback reply. */
  @IsInt()
  @Min(1000)
  @Max(600000)
  AGENT_TURN_TIMEOUT_MS: number = 120000;

  /** OpenAI-compatible `/v1/embeddings` for bundles that name `embeddings`; unset = OPENAI_BASE_URL / OPENAI_API_KEY. */
  @IsOptional()
  @Matches(/^https?:\/\//)
  EMBEDDINGS_BASE_URL?: string = undefined;

  @IsOptional()
  @IsString()
  EMBEDDINGS_API_KEY?: string = undefined;

  /** Passages per `/v1/embeddings` request when a revision's knowledge is embedded. */
  @IsInt()
  @Min(1)
  @Max(2048)
  EMBEDDINGS_BATCH_SIZE: number = 64;

  /** Tries per batch (429, 5xx and network failures are retried with exponential backoff). */
  @IsInt()
  @Min(1)
  @Max(10)
  EMBEDDINGS_MAX_ATTEMPTS: number = 4;

  /**
   * The most a turn spends on dense retrieval (waiting for the revision's passage vectors, then embedding the
   * question, one try) before it ranks lexically (docs/knowledge.md).
   */
  @IsInt()
  @Min(100)
  @Max(60000)
  EMBEDDINGS_QUERY_TIMEOUT_MS: number = 2000;

  /** Channels (WhatsApp, SMS): a Twilio-compatible messaging API. All three or none; none = outbound is recorded as undelivered. */
  @ValidateIf(
    (env: EnvironmentVariables) =>
      env.CHANNEL_PROVIDER_BASE_URL !== undefined ||
      env.CHANNEL_PROVIDER_ACCOUNT_SID !== undefined ||
      env.CHANNEL_PROVIDER_AUTH_TOKEN !== undefined,
  )
  @Matches(/^https?:\/\/[^\s]+$/, {
    message: 'CHANNEL_PROVIDER_BASE_URL must be an http(s) URL (set it together with the account SID and auth token)',
  })
  CHANNEL_PROVIDER_BASE_URL?: string = undefined;

  @ValidateIf(
    (env: EnvironmentVariables) =>
      env.CHANNEL_PROVIDER_BASE_URL !== undefined ||
      env.CHANNEL_PROVIDER_ACCOUNT_SID !== undefined ||
      env.CHANNEL_PROVIDER_AUTH_TOKEN !== undefined,
  )
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, {
    message: 'CHANNEL_PROVIDER_ACCOUNT_SID must be set with the base URL and auth token (letters, digits, _ or -)',
  })
  CHANNEL_PROVIDER_ACCOUNT_SID?: string = undefined;

  @ValidateIf(
    (env: EnvironmentVariables) =>
      env.CHANNEL_PROVIDER_BASE_URL !== undefined ||
      env.CHANNEL_PROVIDER_ACCOUNT_SID !== undefined ||
      env.CHANNEL_PROVIDER_AUTH_TOKEN !== undefined,
  )
  @IsString()
  @MinLength(8, { message: 'CHANNEL_PROVIDER_AUTH_TOKEN must be set with the base URL and account SID (8+ characters)' })
  CHANNEL_PROVIDER_AUTH_TOKEN?: string = undefined;

  /** The public origin (and path prefix) the provider calls; inbound signatures are computed over this URL. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s?#]+[^/\s?#]$/, { message: 'CHANNEL_PUBLIC_BASE_URL must be an http(s) URL without a trailing slash' })
  CHANNEL_PUBLIC_BASE_URL?: string = undefined;

  /** Platform default sender numbers (E.164), used when a channel thread is started without sender_id. */
  @IsOptional()
  @Matches(/^\+[1-9]\d{6,14}$/, { message: 'CHANNEL_DEFAULT_SENDER_SMS must be an E.164 number such as +15550100000' })
  CHANNEL_DEFAULT_SENDER_SMS?: string = undefined;

  @IsOptional()
  @Matches(/^\+[1-9]\d{6,14}$/, { message: 'CHANNEL_DEFAULT_SENDER_WHATSAPP must be an E.164 number such as +15550100000' })
  CHANNEL_DEFAULT_SENDER_WHATSAPP?: string = undefined;

  /** Delivery attempts per outbound channel message (the first try included), with exponential backoff. */
  @IsInt()
  @Min(1)
  @Max(20)
  CHANNEL_OUTBOUND_ATTEMPTS: number = 5;

  @IsInt()
  @Min(10)
  @Max(600000)
  CHANNEL_OUTBOUND_BACKOFF_MS: number = 2000;

  @IsInt()
  @Min(100)
  @Max(120000)
  CHANNEL_PROVIDER_TIMEOUT_MS: number = 10000;

  /** SSE: a `: ping` comment this often, so proxies keep idle streams open. */
  @IsInt()
  @Min(10)
  @Max(300000)
  STREAM_PING_INTERVAL_MS: number = 15000;

  /** SSE replay buffers (resume with Last-Event-ID) are kept at least this long after their last event. */
  @IsInt()
  @Min(600)
  @Max(86400)
  STREAM_REPLAY_TTL_SECONDS: number = 600;

  /** A slow SSE or WebSocket reader is cut off when this many bytes wait unsent; it can resume from the buffer. */
  @IsInt()
  @Min(1024)
  @Max(67108864)
  STREAM_MAX_BUFFERED_BYTES: number = 262144;

  /** A resumed SSE stream tailing a turn that produces nothing for this long (its instance died) ends with an error. */
  @IsInt()
  @Min(1000)
  @Max(3600000)
  STREAM_RESUME_STALL_MS: number = 300000;

  /**
   * SSE: how often the process running streamed turns refreshes their heartbeats in Redis (one pipeline per tick for
   * all of its turns), so that a resume of a turn whose process died ends promptly with an error.
   */
  @IsInt()
  @Min(100)
  @Max(60000)
  STREAM_HEARTBEAT_INTERVAL_MS: number = 2000;

  /** SSE: a running turn's heartbeat expires this long after its last refresh; keep it a few intervals long. */
  @IsInt()
  @Min(500)
  @Max(300000)
  STREAM_HEARTBEAT_TTL_MS: number = 10000;

  /**
   * WebSocket session: a bigger frame is not read; the session is closed with 1009. The default holds the longest
   * valid message (16,384 characters of up to 4 UTF-8 bytes, or 12 as JSON escapes) with room for agent_variables.
   */
  @IsInt()
  @Min(1024)
  @Max(1048576)
  SESSION_MAX_FRAME_BYTES: number = 262144;

  /** WebSocket session: frames per second a session may send (any type), with bursts up to SESSION_FRAME_BURST. */
  @IsInt()
  @Min(1)
  @Max(1000)
  SESSION_FRAMES_PER_SECOND: number = 10;

  /** Frames over the rate get an `error` frame; a session that keeps sending this many more is closed with 1008. */
  @IsInt()
  @Min(1)
  @Max(10000)
  SESSION_FRAME_BURST: number = 30;

  /** WebSocket session: requests running at once on one session; more get an `error` frame (`rate_limited`). */
  @IsInt()
  @Min(1)
  @Max(256)
  SESSION_MAX_IN_FLIGHT: number = 8;

  /** Open WebSocket sessions per credential (publishable key or user) on one instance; more are closed with 1013. */
  @IsInt()
  @Min(1)
  @Max(1000000)
  SESSION_MAX_PER_CREDENTIAL: number = 1000;

  /** Events webhook (docs/events.md): jobs one worker process runs at once. */
  @IsInt()
  @Min(1)
  @Max(256)
  EVENTS_CONCURRENCY: number = 8;

  /** Attempts per event (the first included) before it is `failed`; transient failures back off exponentially. */
  @IsInt()
  @Min(1)
  @Max(50)
  EVENTS_MAX_ATTEMPTS: number = 5;

  /** First retry delay; attempt n waits EVENTS_BACKOFF_MS * 2^(n-1). */
  @IsInt()
  @Min(10)
  @Max(3600000)
  EVENTS_BACKOFF_MS: number = 1000;

  /**
   * How long a worker's lease on an event it started lasts; the worker renews it every third of this while the turn
   * runs, so a turn may take longer. When a worker dies, its events are taken over once their lease has expired.
   */
  @IsInt()
  @Min(1000)
  @Max(3600000)
  EVENTS_LEASE_MS: number = 6000;

  /** How often an idle worker looks for due events in PostgreSQL (besides the wake-up accepts publish on Redis). */
  @IsInt()
  @Min(10)
  @Max(60000)
  EVENTS_POLL_MS: number = 500;

  /** Pending (queued or processing) events above which ingestion sheds load with 503 and Retry-After. */
  @IsInt()
  @Min(1)
  EVENTS_MAX_BACKLOG: number = 200000;

  /** How long the first response to an Idempotency-Key is kept and replayed (docs/idempotency.md). */
  @IsInt()
  @Min(60)
  @Max(604800)
  IDEMPOTENCY_TTL_SECONDS: number = 86400;

  /**
   * The lease of a request running under an Idempotency-Key, renewed while it runs: a repeat meanwhile is 409; once a
   * crashed request's lease has expired, a repeat runs in its place.
   */
  @IsInt()
  @Min(2)
  @Max(3600)
  IDEMPOTENCY_LEASE_SECONDS: number = 30;

  /** How often expired idempotency keys are deleted (in bounded batches). */
  @IsInt()
  @Min(100)
  @Max(3600000)
  IDEMPOTENCY_CLEANUP_INTERVAL_MS: number = 60000;

  /** How often the thread retention job runs (one run across all instances; docs/governance.md). */
  @IsInt()
  @Min(10)
  @Max(604800)
  RETENTION_INTERVAL_SECONDS: number = 3600;

  /** Threads deleted per retention/erasure batch: each batch is one short transaction. */
  @IsInt()
  @Min(1)
  @Max(10000)
  RETENTION_BATCH_SIZE: number = 500;

  /**
   * OpenTelemetry tracing (docs/performance.md), off unless these standard variables ask for it: an OTLP exporter
   * (`OTEL_TRACES_EXPORTER=otlp`) or an endpoint. `OTEL_SDK_DISABLED=true` wins over both.
   */
  @Transform(toBool)
  @IsBoolean()
  OTEL_SDK_DISABLED: boolean = false;

  @IsOptional()
  @IsIn(['otlp', 'none'], { message: 'OTEL_TRACES_EXPORTER must be otlp or none (the only exporter built in)' })
  OTEL_TRACES_EXPORTER?: 'otlp' | 'none' = undefined;

  /** OTLP/HTTP base URL; traces go to `<endpoint>/v1/traces`. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string = undefined;

  /** The full OTLP/HTTP traces URL (wins over OTEL_EXPORTER_OTLP_ENDPOINT). */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string = undefined;

  /** Headers sent with every export, `key=value` pairs separated by commas (e.g. an API key of the collector). */
  @IsOptional()
  @Matches(/^[^=,\s]+=[^,]*(,[^=,\s]+=[^,]*)*$/, { message: 'OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs separated by commas' })
  OTEL_EXPORTER_OTLP_HEADERS?: string = undefined;

  @IsString()
  @MinLength(1)
  OTEL_SERVICE_NAME: string = 'agent-service';

  /** Outbound webhooks (docs/webhooks.md): a delivery counts when the receiver answers 2xx within this time. */
  @IsInt()
  @Min(100)
  @Max(120000)
  WEBHOOKS_TIMEOUT_MS: number = 10000;

  /**
   * Delays before each retry of a failed delivery, in milliseconds, comma-separated (each gets ±20 % jitter); the
   * delivery fails for good after the last. The default (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) spans about 27 h.
   */
  @Matches(/^\d{1,9}(,\d{1,9}){0,19}$/, { message: 'WEBHOOKS_RETRY_SCHEDULE_MS must be 1 to 20 comma-separated delays in ms' })
  WEBHOOKS_RETRY_SCHEDULE_MS: string = '5000,300000,1800000,7200000,18000000,36000000,36000000';

  /** Failed attempts in a row (any message) after which an endpoint is disabled. */
  @IsInt()
  @Min(1)
  @Max(10000)
  WEBHOOKS_DISABLE_AFTER_FAILURES: number = 50;

  /** How long the previous secret keeps signing after a rotation, unless the rotation names its own overlap. */
  @IsInt()
  @Min(0)
  @Max(604800)
  WEBHOOKS_SECRET_OVERLAP_SECONDS: number = 86400;

  /** Deliveries one worker process sends at once. */
  @IsInt()
  @Min(1)
  @Max(256)
  WEBHOOKS_CONCURRENCY: number = 8;

  /**
   * Attempts one organization may have in flight at once across every worker (docs/webhooks.md, "Fairness"): a slow
   * or failing organization holds at most this many delivery slots, the others go to other organizations.
   */
  @IsInt()
  @Min(1)
  @Max(256)
  WEBHOOKS_CONCURRENCY_PER_ORGANIZATION: number = 2;

  /** Endpoints one project may have (creating one more answers 409 `webhook_limit_reached`). */
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOKS_MAX_ENDPOINTS_PER_PROJECT: number = 20;

  /** Endpoints one organization may have across its projects (creating one more answers 409 `webhook_limit_reached`). */
  @IsInt()
  @Min(1)
  @Max(100000)
  WEBHOOKS_MAX_ENDPOINTS_PER_ORGANIZATION: number = 100;

  /**
   * Delivery rows one change (one message) may write: its subscribed endpoints beyond this many (oldest first are
   * kept) get nothing for it, and a warning is logged. At least WEBHOOKS_MAX_ENDPOINTS_PER_PROJECT.
   */
  @IsInt()
  @Max(1000)
  @ValidateBy({
    name: 'atLeastEndpointsPerProject',
    validator: {
      validate: (value: unknown, args) =>
        typeof value === 'number' && value >= (args?.object as EnvironmentVariables).WEBHOOKS_MAX_ENDPOINTS_PER_PROJECT,
      defaultMessage: () => 'WEBHOOKS_MAX_DELIVERIES_PER_CHANGE must be at least WEBHOOKS_MAX_ENDPOINTS_PER_PROJECT',
    },
  })
  WEBHOOKS_MAX_DELIVERIES_PER_CHANGE: number = 20;

  /**
   * How long a subscription change (create, update, delete of an endpoint) waits for every running instance to apply
   * it before answering; an instance that has not confirmed by then catches up on its own (docs/webhooks.md).
   */
  @IsInt()
  @Min(100)
  @Max(60000)
  WEBHOOKS_SUBSCRIPTION_SYNC_TIMEOUT_MS: number = 5000;

  /** How often one instance enqueues again deliveries whose job was lost (a crash between commit and enqueue). */
  @IsInt()
  @Min(100)
  @Max(600000)
  WEBHOOKS_SWEEP_INTERVAL_MS: number = 10000;

  /** A due delivery not picked up for this long is enqueued again by the sweeper. */
  @IsInt()
  @Min(100)
  @Max(3600000)
  WEBHOOKS_STALE_MS: number = 30000;
  /**
   * Networks outbound calls (webhooks, HTTP tools) may reach although they are loopback, private, link-local and
   * the like: comma-separated CIDRs (`10.20.0.0/16,fd12::/64`); empty = none (docs/security.md, SSRF).
   */
  @IsString()
  @ValidateBy({
    name: 'cidrList',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && invalidCidrs(value).length === 0,
      defaultMessage: () => 'OUTBOUND_ALLOWED_NETWORKS must be CIDRs separated by commas, such as 127.0.0.0/8,::1/128',
    },
  })
  OUTBOUND_ALLOWED_NETWORKS: string = '';

  /**
   * Derives each agent's HTTP-tool signing secret (docs/http-tools.md). Unset = derived from JWT_SECRET with HKDF,
   * so rotating JWT_SECRET also rotates every tool signing secret.
   */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'HTTP_TOOLS_SIGNING_KEY must be at least 32 characters' })
  HTTP_TOOLS_SIGNING_KEY?: string = undefined;

  /** Written by `npm start` (`cli demo:ensure`): when set, the start banner shows the demo agents' keys and a curl. */
  @IsOptional()
  @IsString()
  QUICKSTART_FILE?: string = undefined;
}

export class InvalidEnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses and validates raw variables; throws one error listing every bad key. */
export function validateEnv(raw: Record<string, string | undefined>): EnvironmentVariables {
  const known = new Set(Object.keys(new EnvironmentVariables()));
  const present = Object.fromEntries(Object.entries(raw).filter(([key, value]) => known.has(key) && value !== undefined && value !== ''));
  const env = plainToInstance(EnvironmentVariables, present, { enableImplicitConversion: true, exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    throw new InvalidEnvironmentError(errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`));
  }
  return env;
}

/** ENCRYPTION_KEYS as keys, first the one that seals; undefined when malformed. */
export function parseEncryptionKeys(value: string): Array<{ id: string; key: Buffer }> | undefined {
  const keys = value.split(',').map((entry) => {
    const [id, encoded, ...rest] = entry.trim().split(':');
    const key = encoded === undefined ? undefined : Buffer.from(encoded, 'base64');
    const valid = rest.length === 0 && id !== undefined && /^[A-Za-z0-9_-]{1,32}$/.test(id) && id !== 'jwt';
    return valid && key?.length === 32 && /^[A-Za-z0-9+/]+={0,2}$/.test(encoded!) ? { id, key } : undefined;
  });
  if (keys.some((key) => key === undefined)) return undefined;
  const valid = keys as Array<{ id: string; key: Buffer }>;
  return new Set(valid.map((key) => key.id)).size === valid.length ? valid : undefined;
}
