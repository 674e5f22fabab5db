import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, Optional, type OnApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bull';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { BusRelay } from '../../common/bus/bus-relay.js';
import { RedisService, type FailOpenArea } from '../../common/redis/redis.service.js';
import { AppConfig } from '../../config/app-config.js';
import { QueueName } from '../../queue/job-map.js';
import { providerErrorKind } from '../../common/errors/provider-error-kind.js';

export type CacheName = 'credentials' | 'live_agents';
export type ChannelMessageOutcome = 'accepted' | 'unrouted' | 'refused' | 'sent' | 'delivered' | 'failed' | 'retried';
type Runtime = 'v1' | 'v2';
type Provider = 'builtin' | 'openai' | 'anthropic';
/** Ends a timed turn: with its token usage when it answered, with the error when it failed. */
/** Token counts of a turn, by field (the runtime's TokenUsage). */
type TokenCounts = Record<(typeof TOKEN_KINDS)[number][1], number>;

export type TurnTimer = { completed(usage: TokenCounts): void; failed(error: unknown): never };
/** Due events from the events table, grouped by organization bucket and age bucket (index into EVENT_AGE_BOUNDS). */
export type EventsBacklogSource = (
  ageBounds: readonly number[],
  buckets: number,
) => Promise<Array<{ bucket: number; ageBucket: number; count: number; oldestSeconds: number }>>;
type BacklogRows = Awaited<ReturnType<EventsBacklogSource>>;
/** Answers `/health/ready` on the operations listener (the health module's ReadinessService, passed in by main and the worker). */
export interface ReadinessProbe {
  answer(): Promise<{ status: number; headers: Record<string, string>; body: unknown }>;
}

const MISNAMED_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/** What a queue's gauges read at scrape time: a Bull queue's, or one kept elsewhere (events: rows in PostgreSQL). */
export interface QueueBacklog {
  counts(): Promise<Record<(typeof QUEUE_STATES)[number], number>>;
  /** Seconds the oldest waiting item has waited; 0 when none waits. */
  oldestWaitingSeconds(): Promise<number>;
}

function bullBacklog(queue: Queue): QueueBacklog {
  return {
    counts: () => queue.getJobCounts(),
    async oldestWaitingSeconds() {
      const first = Math.min(...(await queue.getWaiting(0, 0)).filter(Boolean).map((job) => job.timestamp));
      return Number.isFinite(first) ? Math.max(0, (Date.now() - first) / 1000) : 0;
    },
  };
}
const FAIL_OPEN_AREAS: FailOpenArea[] = ['rate_limit', 'login_attempts'];
const TOKEN_KINDS = [
  ['input', 'input_tokens'],
  ['output', 'output_tokens'],
  ['cache_read', 'cache_read_tokens'],
  ['reasoning', 'reasoning_tokens'],
] as const;
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const TURN_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];
/** `agent_events_due{age}`: how long due events have waited, as bounds in seconds and their labels (one more than bounds). */
const EVENT_AGE_BOUNDS = [60, 300, 900, 3600] as const;
const EVENT_AGE_LABELS = ['lt_1m', '1m_5m', '5m_15m', '15m_1h', 'ge_1h'] as const;
/** `agent_events_oldest_due_age_seconds{org_bucket}`: organizations hashed into this many buckets (labels 0..15). */
const ORG_BUCKETS = 16;
const METRICS_PATH = /^\/metrics(\?|$)/;
const LIVENESS_PATH = /^\/health(\?|$)/;
const READINESS_PATH = /^\/health\/ready(\?|$)/;

/**
 * Every Prometheus metric of this process (docs/operations.md), on its own registry, served by a listener apart from
 * the public port. Hot paths only increment in memory; what needs I/O (queues, the pool) is read when scraped.
 * Label values are closed sets or route templates: never an organization, agent, user or thread id.
 */
@Injectable()
export class MetricsService implements OnApplicationShutdown {
  readonly registry = new Registry();
  private readonly logger = new Logger('Metrics');
  private server: Server | undefined;
  private readonly queues: Array<{ name: string; backlog: QueueBacklog }>;
  private eventsBacklog: EventsBacklogSource | undefined;
  /** The backlog read in flight: both backlog gauges of one scrape (collected concurrently) share it. */
  private backlogRead: Promise<BacklogRows | undefined> | undefined;

  private readonly httpRequests = new Counter({
    name: 'agent_http_requests_total',
    help: 'HTTP requests answered, by route template',
    labelNames: ['method', 'route', 'status_class'],
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'agent_http_request_duration_seconds',
    help: 'HTTP request latency, by route template',
    labelNames: ['method', 'route', 'status_class'],
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });
  private readonly turns = new Counter({
    name: 'agent_turns_total',
    help: 'Finished turns, by surface, runtime, provider and outcome',
    labelNames: ['surface', 'runtime', 'provider', 'outcome'],
    registers: [this.registry],
  });
  private readonly turnDuration = new Histogram({
    name: 'agent_turn_duration_seconds',
    help: 'Turn latency (engine and provider, up to the saved reply)',
    labelNames: ['surface', 'runtime', 'provider'],
    buckets: TURN_BUCKETS,
    registers: [this.registry],
  });
  private readonly providerErrors = new Counter({
    name: 'agent_provider_errors_total',
    help: 'Turns failed by the model provider, by kind',
    labelNames: ['provider', 'kind'],
    registers: [this.registry],
  });
  private readonly tokens = new Counter({
    name: 'agent_tokens_total',
    help: 'Tokens of finished turns, by kind',
    labelNames: ['provider', 'kind'],
    registers: [this.registry],
  });
  private readonly eventsAccepted = new Counter({
    name: 'agent_events_accepted_total',
    help: 'Events accepted (202) and queued',
    registers: [this.registry],
  });
  private readonly eventsProcessed = new Counter({
    name: 'agent_events_processed_total',
    help: 'Events done, by final outcome',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly eventsRetried = new Counter({
    name: 'agent_events_retried_total',
    help: 'Event attempts failed transiently and scheduled again',
    registers: [this.registry],
  });
  private readonly eventLag = new Histogram({
    name: 'agent_event_processing_lag_seconds',
    help: 'From event accept to completed or failed',
    buckets: LAG_BUCKETS,
    registers: [this.registry],
  });
  private readonly channelMessages = new Counter({
    name: 'agent_channel_messages_total',
    help: 'Channel messages, by direction and outcome',
    labelNames: ['direction', 'outcome'],
    registers: [this.registry],
  });
  private readonly sseStreams = new Gauge({
    name: 'agent_sse_streams_open',
    help: 'SSE streams open on this process',
    registers: [this.registry],
  });
  private readonly wsSessions = new Gauge({
    name: 'agent_ws_sessions_open',
    help: 'WebSocket sessions open on this process',
    registers: [this.registry],
  });
  private readonly streamResumes = new Counter({
    name: 'agent_stream_resumes_total',
    help: 'SSE resumes (Last-Event-ID), by whether the replay buffer had the stream',
    labelNames: ['result'],
    registers: [this.registry],
  });
  private readonly cacheLookups = new Counter({
    name: 'agent_cache_lookups_total',
    help: 'In-memory cache lookups, by cache and result',
    labelNames: ['cache', 'result'],
    registers: [this.registry],
  });
  private readonly cacheInvalidations = new Counter({
    name: 'agent_cache_invalidations_total',
    help: 'In-memory cache invalidations, by cache',
    labelNames: ['cache'],
    registers: [this.registry],
  });
  private readonly redisErrors = new Counter({
    name: 'agent_redis_errors_total',
    help: 'Errors reported by the shared Redis connection',
    registers: [this.registry],
  });
  private readonly rateLimitRejections = new Counter({
    name: 'agent_rate_limit_rejections_total',
    help: 'HTTP requests refused with 429 by the rate limit',
    registers: [this.registry],
  });
  private readonly revocationListener = new Gauge({
    name: 'agent_revocation_listener_connected',
    help: 'Whether this process listens for credential revocations (PostgreSQL LISTEN): 1 listening, 0 reconnecting',
    registers: [this.registry],
  });
  private readonly revocationDisconnects = new Counter({
    name: 'agent_revocation_listener_disconnects_total',
    help: 'Times the revocation listener lost (or could not open) its PostgreSQL connection',
    registers: [this.registry],
  });
  private readonly revocationNotifications = new Counter({
    name: 'agent_revocation_notifications_total',
    help: 'Credential revocations heard from PostgreSQL NOTIFY',
    registers: [this.registry],
  });

  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly redis: RedisService,
    @InjectQueue(QueueName.ChannelsOutbound) channelsQueue: Queue,
    @Optional() relay?: BusRelay,
  ) {
    this.queues = [{ name: QueueName.ChannelsOutbound, backlog: bullBacklog(channelsQueue) }];
    collectDefaultMetrics({ register: this.registry });
    // Gauges that prom-client names `_total`, which Prometheus reserves for counters (`promtool check metrics` refuses them).
    for (const name of MISNAMED_DEFAULTS) this.registry.removeSingleMetric(name);
    this.redis.client.on('error', () => this.redisErrors.inc());
    const failOpen = this.redis.failOpenCounts;
    new Counter({
      name: 'agent_rate_limit_fail_open_total',
      help: 'Checks let through because Redis could not answer, by area',
      labelNames: ['area'],
      registers: [this.registry],
      collect() {
        // RedisService keeps the counts; the counter shows them.
        this.reset();
        for (const area of FAIL_OPEN_AREAS) this.inc({ area }, failOpen[area]);
      },
    });
    const { identity } = config;
    new Gauge({
      name: 'agent_build_info',
      help: 'Always 1: the version, commit and Node.js version of this process, and its instance name (INSTANCE_NAME)',
      labelNames: ['version', 'commit', 'node_version', 'instance_name'],
      registers: [this.registry],
    }).set({ version: identity.version, commit: identity.commit, node_version: identity.nodeVersion, instance_name: identity.instance }, 1);
    if (relay) {
      new Gauge({
        name: 'agent_bus_relay_subscribed',
        help: 'Whether the Redis bus relay is subscribed (1) or reconnecting (0): while 0, cache invalidations from other processes are missed',
        registers: [this.registry],
        collect() {
          this.set(relay.subscribed ? 1 : 0);
        },
      });
      new Counter({
        name: 'agent_bus_relay_messages_total',
        help: 'Bus events forwarded to other processes (published, publish_failed) and heard from them (received)',
        labelNames: ['direction'],
        registers: [this.registry],
        collect() {
          this.reset();
          this.inc({ direction: 'published' }, relay.counts.published);
          this.inc({ direction: 'publish_failed' }, relay.counts.publishFailed);
          this.inc({ direction: 'received' }, relay.counts.received);
        },
      });
    }
    const queues = () => this.queues;
    new Gauge({
      name: 'agent_queue_jobs',
      help: 'Jobs per queue and state',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        const counts = await Promise.all(queues().map(({ backlog }) => backlog.counts()));
        queues().forEach(({ name }, i) => {
          for (const state of QUEUE_STATES) this.set({ queue: name, state }, counts[i]![state]);
        });
      },
    });
    new Gauge({
      name: 'agent_queue_oldest_waiting_age_seconds',
      help: 'Age of the oldest job waiting in each queue (0 when none waits)',
      labelNames: ['queue'],
      registers: [this.registry],
      async collect() {
        const oldest = await Promise.all(queues().map(({ backlog }) => backlog.oldestWaitingSeconds()));
        queues().forEach(({ name }, i) => this.set({ queue: name }, oldest[i]!));
      },
    });
    const backlog = () => this.readEventsBacklog();
    new Gauge({
      name: 'agent_events_due',
      help: 'Events due to run and not running (queued and due, or processing past their lease), by how long they have been due; read from PostgreSQL',
      labelNames: ['age'],
      registers: [this.registry],
      async collect() {
        this.reset();
        const rows = await backlog();
        if (!rows) return;
        const counts = EVENT_AGE_LABELS.map(() => 0);
        for (const row of rows) counts[row.ageBucket] = (counts[row.ageBucket] ?? 0) + row.count;
        EVENT_AGE_LABELS.forEach((age, i) => this.set({ age }, counts[i]!));
      },
    });
    new Gauge({
      name: 'agent_events_oldest_due_age_seconds',
      help: 'How long the oldest due event of each organization bucket (a hash of the organization, not an id) has waited; 0 when none; read from PostgreSQL',
      labelNames: ['org_bucket'],
      registers: [this.registry],
      async collect() {
        this.reset();
        const rows = await backlog();
        if (!rows) return;
        const oldest = new Array<number>(ORG_BUCKETS).fill(0);
        for (const row of rows) oldest[row.bucket] = Math.max(oldest[row.bucket] ?? 0, row.oldestSeconds);
        oldest.forEach((seconds, bucket) => this.set({ org_bucket: String(bucket) }, seconds));
      },
    });
    const pool = () =>
      (this.dataSource.driver as unknown as { master?: { totalCount: number; idleCount: number; waitingCount: number } }).master;
    new Gauge({
      name: 'agent_db_pool_connections',
      help: 'PostgreSQL pool connections, by state',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const master = pool();
        if (!master) return;
        this.set({ state: 'in_use' }, master.totalCount - master.idleCount);
        this.set({ state: 'idle' }, master.idleCount);
        this.set({ state: 'waiting' }, master.waitingCount);
      },
    });
  }

  /**
   * Serves `GET /metrics` on METRICS_HOST:METRICS_PORT (never the public port); bearer METRICS_TOKEN when set.
   * Returns the listener's URL, or undefined when METRICS_PORT=off. The API (`main`) and the worker call it.
   */
  async listen(readiness?: ReadinessProbe): Promise<string | undefined> {
    const { port, host, token } = this.config.metrics;
    if (port === null) return undefined;
    const expected = token ? Buffer.from(`Bearer ${token}`) : undefined;
    const server = createServer((request, response) => {
      const url = request.url ?? '';
      // Probes without credentials, as on the public port: the worker has no other listener (docs/operations.md).
      if (readiness && request.method === 'GET' && (LIVENESS_PATH.test(url) || READINESS_PATH.test(url))) {
        void answerHealth(response, READINESS_PATH.test(url) ? readiness : undefined);
        return;
      }
      if (request.method !== 'GET' || !METRICS_PATH.test(url)) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
        return;
      }
      if (expected && !sameSecret(expected, request.headers.authorization)) {
        response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('Unauthorized\n');
        return;
      }
      this.registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        (error: unknown) => {
          this.logger.error({ err: error }, 'metrics collection failed');
          response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics collection failed\n');
        },
      );
    });
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
    } catch (error) {
      // A second process on the host (say `npm run worker` beside `npm start`) must not die for want of a metrics port.
      if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
      this.logger.error(
        `metrics port ${host}:${port} is in use: this process serves no metrics; set METRICS_PORT (e.g. 9465 for a worker)`,
      );
      return undefined;
    }
    this.server = server;
    const address = server.address() as AddressInfo;
    return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/metrics`;
  }

  /** The listener's bound port (METRICS_PORT=0 picks one), once `listen()` ran. */
  get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  httpResponded(method: string, route: string | undefined, status: number, seconds: number): void {
    const labels = { method, route: route ?? 'unmatched', status_class: `${Math.floor(status / 100)}xx` };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  /** Times one turn from now. */
  turnStarted(surface: string, runtime: Runtime, provider: Provider): TurnTimer {
    const end = this.turnDuration.startTimer({ surface, runtime, provider });
    return {
      completed: (usage) => {
        end();
        this.turns.inc({ surface, runtime, provider, outcome: 'ok' });
        for (const [kind, field] of TOKEN_KINDS) if (usage[field] > 0) this.tokens.inc({ provider, kind }, usage[field]);
      },
      failed: (error) => {
        end();
        this.turns.inc({ surface, runtime, provider, outcome: 'error' });
        const kind = providerErrorKind(error);
        if (kind) this.providerErrors.inc({ provider, kind });
        throw error;
      },
    };
  }

  /** A queue kept outside Bull reports its backlog on the queue gauges (the events: rows in PostgreSQL). */
  registerQueue(name: string, backlog: QueueBacklog): void {
    this.queues.unshift({ name, backlog });
  }

  eventAccepted(): void {
    this.eventsAccepted.inc();
  }

  /** One attempt at an event ended: final (lag measured from `acceptedAt`, its row's created_at) or to be retried. */
  eventAttempted(outcome: 'completed' | 'failed' | 'retrying', acceptedAt: Date): void {
    if (outcome === 'retrying') {
      this.eventsRetried.inc();
      return;
    }
    this.eventsProcessed.inc({ outcome });
    this.eventLag.observe(Math.max(0, (Date.now() - acceptedAt.getTime()) / 1000));
  }

  channelMessage(direction: 'inbound' | 'outbound', outcome: ChannelMessageOutcome): void {
    this.channelMessages.inc({ direction, outcome });
  }

  sseStreamOpened(): void {
    this.sseStreams.inc();
  }

  sseStreamClosed(): void {
    this.sseStreams.dec();
  }

  wsSessionOpened(): void {
    this.wsSessions.inc();
  }

  wsSessionClosed(): void {
    this.wsSessions.dec();
  }

  streamResumed(result: 'replayed' | 'not_found'): void {
    this.streamResumes.inc({ result });
  }

  cacheLookup(cache: CacheName, hit: boolean): void {
    this.cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' });
  }

  cacheInvalidated(cache: CacheName): void {
    this.cacheInvalidations.inc({ cache });
  }

  rateLimitRejected(): void {
    this.rateLimitRejections.inc();
  }

  /** The events module's reading of its table (the gauges stay absent in processes without one: the CLI). */
  useEventsBacklog(source: EventsBacklogSource): void {
    this.eventsBacklog = source;
  }

  /**
   * One read serves both backlog gauges of a scrape (prom-client collects them concurrently). A failed read leaves
   * the gauges empty for that scrape rather than failing it or repeating stale figures.
   */
  private readEventsBacklog(): Promise<BacklogRows | undefined> {
    const source = this.eventsBacklog;
    if (!source) return Promise.resolve(undefined);
    // Shared while in flight only: a later scrape always reads afresh (a time window would show a scrape the rows of
    // the previous one).
    this.backlogRead ??= source(EVENT_AGE_BOUNDS, ORG_BUCKETS)
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'could not read the events backlog from PostgreSQL');
        return undefined;
      })
      .finally(() => {
        this.backlogRead = undefined;
      });
    return this.backlogRead;
  }

  /** The revocation listener connected (true) or lost its connection (false). */
  revocationListening(listening: boolean): void {
    this.revocationListener.set(listening ? 1 : 0);
    if (!listening) this.revocationDisconnects.inc();
  }

  revocationNotified(): void {
    this.revocationNotifications.inc();
  }
}

/** `/health` (liveness: always 200) or `/health/ready` (readiness) on the operations listener, as on the public port. */
async function answerHealth(response: ServerResponse, readiness: ReadinessProbe | undefined): Promise<void> {
  const json = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
  const { status, headers, body } = readiness ? await readiness.answer() : { status: 200, headers: {}, body: { status: 'ok' } };
  response.writeHead(status, { ...json, ...headers }).end(JSON.stringify(body));
}

function sameSecret(expected: Buffer, given: string | undefined): boolean {
  const actual = Buffer.from(given ?? '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
