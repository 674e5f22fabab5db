import { hkdfSync, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { parseTrustedProxies, type TrustedProxies } from './trusted-proxies.js';
import { readBuildInfo, type BuildInfo } from './build-info.js';
import { EnvironmentVariables, parseEncryptionKeys, validateEnv } from './env.schema.js';

/** The pool of a process that does not size it from the server (the CLI, tests without DATABASE_POOL_SIZE). */
const DEFAULT_POOL_SIZE = 20;

/** Typed, validated configuration grouped by area. Inject it; never read `process.env` elsewhere. */
export class AppConfig {
  readonly env: EnvironmentVariables['NODE_ENV'];
  readonly http: {
    host: string;
    port: number;
    basePath: string;
    legacySunset: string;
    /** Who may speak for the client in X-Forwarded-For (src/common/http/trusted-proxies.ts). */
    trustedProxies: TrustedProxies;
    bodyLimitBytes: number;
    managementCorsOrigins: string[];
  };
  /** Prometheus listener; `port` null = disabled. */
  readonly metrics: { port: number | null; host: string; token?: string };
  /**
   * `poolSize` is DATABASE_POOL_SIZE, or 20 until start-up derives it from the server's max_connections and
   * `expectedProcesses` (src/database/pool-sizing.ts) before the pool exists.
   */
  readonly db: { url: string; poolSize: number; explicitPoolSize?: number; expectedProcesses: number; migrateOnStart: boolean };
  /** Who this process is, in every log line and in `agent_build_info`. */
  readonly identity: { instance: string; host: string; pid: number } & BuildInfo;
  readonly redis: { url: string; keyPrefix: string };
  readonly auth: {
    jwtSecret: string;
    tokenTtlSeconds: number;
    credentialCacheTtlMs: number;
    credentialCacheFallbackTtlMs: number;
    login: { maxFailuresPerAccount: number; maxFailuresPerIp: number; failureWindowSeconds: number };
  };
  /** True when JWT_SECRET was not set (outside production): tokens are signed with a random per-process secret. */
  readonly ephemeralJwtSecret: boolean;
  readonly bootstrap: { orgApiKey?: string; orgName: string };
  /** The demo `npm start` set up (src/quickstart), shown in the start banner. */
  readonly quickstartFile?: string;
  readonly rateLimit: { max: number; windowSeconds: number };
  readonly logLevel: string;
  readonly workersEnabled: boolean;
  /** SIGTERM: readiness 503 while still serving for `drainMs`, then at most `timeoutMs` to finish (src/shutdown.ts). */
  readonly shutdown: { drainMs: number; timeoutMs: number };
  readonly bundleCacheTtlSeconds: number;
  readonly providers: {
    openai: { apiKey?: string; baseUrl?: string };
    anthropic: { apiKey?: string; baseUrl?: string };
    timeoutMs: number;
  };
  /** Agent mode (docs/agents.md): a whole turn's time, model and tool calls included. */
  readonly agent: { turnTimeoutMs: number };
  /** The OpenAI-compatible embeddings endpoint bundles' `embeddings` use (docs/knowledge.md). */
  readonly embeddings: {
    apiKey?: string;
    baseUrl?: string;
    batchSize: number;
    maxAttempts: number;
    /** Per request when passages are embedded. */
    timeoutMs: number;
    /** A turn's whole dense-retrieval budget (passage vectors, then the question). */
    queryTimeoutMs: number;
  };
  readonly channels: {
    provider?: { baseUrl: string; accountSid: string; authToken: string };
    publicBaseUrl?: string;
    defaultSenders: { sms?: string; whatsapp?: string };
    outboundAttempts: number;
    outboundBackoffMs: number;
    timeoutMs: number;
  };
  readonly events: {
    concurrency: number;
    maxAttempts: number;
    backoffMs: number;
    leaseMs: number;
    pollMs: number;
    maxBacklog: number;
  };
  /** Thread retention job and erasure batches (docs/governance.md). */
  readonly retention: { intervalSeconds: number; batchSize: number };
  readonly streaming: {
    pingIntervalMs: number;
    replayTtlSeconds: number;
    maxBufferedBytes: number;
    resumeStallMs: number;
    heartbeatIntervalMs: number;
    heartbeatTtlMs: number;
  };
  /** Idempotency keys (docs/idempotency.md): how long a first response is kept, and the running request's lease. */
  readonly idempotency: { ttlSeconds: number; leaseSeconds: number; cleanupIntervalMs: number };
  readonly session: { maxFrameBytes: number; framesPerSecond: number; frameBurst: number; maxInFlight: number; maxPerCredential: number };
  /** Keys that encrypt stored secrets, the sealing one first (empty: derived from JWT_SECRET). */
  readonly encryption: { keys: Array<{ id: string; key: Buffer }> };
  readonly webhooks: {
    timeoutMs: number;
    retryScheduleMs: number[];
    disableAfterFailures: number;
    secretOverlapSeconds: number;
    concurrency: number;
    concurrencyPerOrganization: number;
    maxEndpointsPerProject: number;
    maxEndpointsPerOrganization: number;
    maxDeliveriesPerChange: number;
    subscriptionSyncTimeoutMs: number;
    sweepIntervalMs: number;
    staleMs: number;
  };
  /** OpenTelemetry tracing; `tracesUrl` undefined = the exporter's default (http://localhost:4318/v1/traces). */
  readonly tracing: { enabled: boolean; serviceName: string; tracesUrl?: string; headers: Record<string, string> };
  /** Outbound calls to operator-chosen URLs: CIDRs exempt from the SSRF guard (docs/security.md). */
  readonly outbound: { allowedNetworks: string[] };
  /** HTTP tools (docs/http-tools.md): the server key each agent's signing secret is derived from. */
  readonly httpTools: { signingKey: Buffer };

  constructor(vars: EnvironmentVariables) {
    this.env = vars.NODE_ENV;
    this.ephemeralJwtSecret = vars.JWT_SECRET === undefined;
    this.http = {
      host: vars.HOST,
      port: vars.PORT,
      basePath: vars.BASE_PATH,
      legacySunset: vars.LEGACY_PATH_SUNSET,
      trustedProxies: parseTrustedProxies(vars.TRUST_PROXY),
      bodyLimitBytes: 1024 * 1024,
      managementCorsOrigins: vars.CORS_MANAGEMENT_ORIGINS.split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    };
    this.metrics = { port: vars.METRICS_PORT === 'off' ? null : vars.METRICS_PORT, host: vars.METRICS_HOST, token: vars.METRICS_TOKEN };
    this.db = {
      url: vars.DATABASE_URL,
      poolSize: vars.DATABASE_POOL_SIZE ?? DEFAULT_POOL_SIZE,
      explicitPoolSize: vars.DATABASE_POOL_SIZE,
      expectedProcesses: vars.DATABASE_EXPECTED_PROCESSES,
      migrateOnStart: vars.MIGRATE_ON_START,
    };
    const host = hostname();
    this.identity = {
      instance: vars.INSTANCE_NAME ?? `${host}:${process.pid}`,
      host,
      pid: process.pid,
      ...readBuildInfo(vars.BUILD_COMMIT),
    };
    this.redis = { url: vars.REDIS_URL, keyPrefix: vars.REDIS_KEY_PREFIX };
    this.auth = {
      // No built-in secret: outside production (where it is required) a missing one is random per process.
      jwtSecret: vars.JWT_SECRET ?? randomBytes(48).toString('base64url'),
      tokenTtlSeconds: vars.TOKEN_TTL_SECONDS,
      credentialCacheTtlMs: vars.CREDENTIAL_CACHE_TTL_MS,
      credentialCacheFallbackTtlMs: vars.CREDENTIAL_CACHE_FALLBACK_TTL_MS,
      login: {
        maxFailuresPerAccount: vars.LOGIN_MAX_FAILURES_PER_ACCOUNT,
        maxFailuresPerIp: vars.LOGIN_MAX_FAILURES_PER_IP,
        failureWindowSeconds: vars.LOGIN_FAILURE_WINDOW_SECONDS,
      },
    };
    this.bootstrap = { orgApiKey: vars.BOOTSTRAP_ORG_API_KEY, orgName: vars.BOOTSTRAP_ORG_NAME };
    this.quickstartFile = vars.QUICKSTART_FILE;
    this.rateLimit = { max: vars.RATE_LIMIT_MAX, windowSeconds: vars.RATE_LIMIT_WINDOW_SECONDS };
    this.logLevel = vars.LOG_LEVEL;
    this.workersEnabled = vars.WORKERS === 'on';
    this.shutdown = { drainMs: vars.SHUTDOWN_DRAIN_MS, timeoutMs: vars.SHUTDOWN_TIMEOUT_MS };
    this.bundleCacheTtlSeconds = vars.BUNDLE_CACHE_TTL_SECONDS;
    this.providers = {
      openai: { apiKey: vars.OPENAI_API_KEY, baseUrl: vars.OPENAI_BASE_URL },
      anthropic: { apiKey: vars.ANTHROPIC_API_KEY, baseUrl: vars.ANTHROPIC_BASE_URL },
      timeoutMs: vars.PROVIDER_TIMEOUT_MS,
    };
    this.agent = { turnTimeoutMs: vars.AGENT_TURN_TIMEOUT_MS };
    this.embeddings = {
      apiKey: vars.EMBEDDINGS_API_KEY ?? vars.OPENAI_API_KEY,
      baseUrl: vars.EMBEDDINGS_BASE_URL ?? vars.OPENAI_BASE_URL,
      batchSize: vars.EMBEDDINGS_BATCH_SIZE,
      maxAttempts: vars.EMBEDDINGS_MAX_ATTEMPTS,
      timeoutMs: vars.PROVIDER_TIMEOUT_MS,
      queryTimeoutMs: vars.EMBEDDINGS_QUERY_TIMEOUT_MS,
    };
    this.channels = {
      provider:
        vars.CHANNEL_PROVIDER_BASE_URL && vars.CHANNEL_PROVIDER_ACCOUNT_SID && vars.CHANNEL_PROVIDER_AUTH_TOKEN
          ? {
              baseUrl: vars.CHANNEL_PROVIDER_BASE_URL.replace(/\/+$/, ''),
              accountSid: vars.CHANNEL_PROVIDER_ACCOUNT_SID,
              authToken: vars.CHANNEL_PROVIDER_AUTH_TOKEN,
            }
          : undefined,
      publicBaseUrl: vars.CHANNEL_PUBLIC_BASE_URL,
      defaultSenders: { sms: vars.CHANNEL_DEFAULT_SENDER_SMS, whatsapp: vars.CHANNEL_DEFAULT_SENDER_WHATSAPP },
      outboundAttempts: vars.CHANNEL_OUTBOUND_ATTEMPTS,
      outboundBackoffMs: vars.CHANNEL_OUTBOUND_BACKOFF_MS,
      timeoutMs: vars.CHANNEL_PROVIDER_TIMEOUT_MS,
    };
    this.events = {
      concurrency: vars.EVENTS_CONCURRENCY,
      maxAttempts: vars.EVENTS_MAX_ATTEMPTS,
      backoffMs: vars.EVENTS_BACKOFF_MS,
      leaseMs: vars.EVENTS_LEASE_MS,
      pollMs: vars.EVENTS_POLL_MS,
      maxBacklog: vars.EVENTS_MAX_BACKLOG,
    };
    this.encryption = { keys: vars.ENCRYPTION_KEYS ? parseEncryptionKeys(vars.ENCRYPTION_KEYS)! : [] };
    this.webhooks = {
      timeoutMs: vars.WEBHOOKS_TIMEOUT_MS,
      retryScheduleMs: vars.WEBHOOKS_RETRY_SCHEDULE_MS.split(',').map(Number),
      disableAfterFailures: vars.WEBHOOKS_DISABLE_AFTER_FAILURES,
      secretOverlapSeconds: vars.WEBHOOKS_SECRET_OVERLAP_SECONDS,
      concurrency: vars.WEBHOOKS_CONCURRENCY,
      concurrencyPerOrganization: vars.WEBHOOKS_CONCURRENCY_PER_ORGANIZATION,
      maxEndpointsPerProject: vars.WEBHOOKS_MAX_ENDPOINTS_PER_PROJECT,
      maxEndpointsPerOrganization: vars.WEBHOOKS_MAX_ENDPOINTS_PER_ORGANIZATION,
      maxDeliveriesPerChange: vars.WEBHOOKS_MAX_DELIVERIES_PER_CHANGE,
      subscriptionSyncTimeoutMs: vars.WEBHOOKS_SUBSCRIPTION_SYNC_TIMEOUT_MS,
      sweepIntervalMs: vars.WEBHOOKS_SWEEP_INTERVAL_MS,
      staleMs: vars.WEBHOOKS_STALE_MS,
    };
    this.retention = { intervalSeconds: vars.RETENTION_INTERVAL_SECONDS, batchSize: vars.RETENTION_BATCH_SIZE };
    this.streaming = {
      pingIntervalMs: vars.STREAM_PING_INTERVAL_MS,
      replayTtlSeconds: vars.STREAM_REPLAY_TTL_SECONDS,
      maxBufferedBytes: vars.STREAM_MAX_BUFFERED_BYTES,
      resumeStallMs: vars.STREAM_RESUME_STALL_MS,
      heartbeatIntervalMs: vars.STREAM_HEARTBEAT_INTERVAL_MS,
      heartbeatTtlMs: vars.STREAM_HEARTBEAT_TTL_MS,
    };
    this.idempotency = {
      ttlSeconds: vars.IDEMPOTENCY_TTL_SECONDS,
      leaseSeconds: vars.IDEMPOTENCY_LEASE_SECONDS,
      cleanupIntervalMs: vars.IDEMPOTENCY_CLEANUP_INTERVAL_MS,
    };
    this.session = {
      maxFrameBytes: vars.SESSION_MAX_FRAME_BYTES,
      framesPerSecond: vars.SESSION_FRAMES_PER_SECOND,
      frameBurst: vars.SESSION_FRAME_BURST,
      maxInFlight: vars.SESSION_MAX_IN_FLIGHT,
      maxPerCredential: vars.SESSION_MAX_PER_CREDENTIAL,
    };
    this.outbound = {
      allowedNetworks: vars.OUTBOUND_ALLOWED_NETWORKS.split(',')
        .map((n) => n.trim())
        .filter(Boolean),
    };
    this.httpTools = {
      signingKey: vars.HTTP_TOOLS_SIGNING_KEY
        ? Buffer.from(vars.HTTP_TOOLS_SIGNING_KEY, 'utf8')
        : Buffer.from(hkdfSync('sha256', this.auth.jwtSecret, 'agent-service', 'http-tools signing key', 32)),
    };
    const otlpEndpoint = vars.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, '');
    this.tracing = {
      enabled:
        !vars.OTEL_SDK_DISABLED &&
        vars.OTEL_TRACES_EXPORTER !== 'none' &&
        (vars.OTEL_TRACES_EXPORTER === 'otlp' || otlpEndpoint !== undefined || vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined),
      serviceName: vars.OTEL_SERVICE_NAME,
      tracesUrl: vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (otlpEndpoint ? `${otlpEndpoint}/v1/traces` : undefined),
      headers: Object.fromEntries(
        (vars.OTEL_EXPORTER_OTLP_HEADERS ?? '')
          .split(',')
          .filter(Boolean)
          .map((pair) => {
            const at = pair.indexOf('=');
            return [pair.slice(0, at).trim(), decodeURIComponent(pair.slice(at + 1).trim())];
          }),
      ),
    };
  }
}

/** Reads and validates the process environment (with overrides, for tests and tools). */
export function loadConfig(overrides: Record<string, string | undefined> = {}): AppConfig {
  return new AppConfig(validateEnv({ ...process.env, ...overrides }));
}
