/**
 * The contract between the runner and a scenario. One file per scenario under `bench/scenarios/`, default-exporting
 * a `Scenario`; the runner discovers them (see `lib/registry.ts`), so adding one never touches the runner.
 */
import type { Pool } from 'pg';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One request of the load, as data: it crosses into the load-generator process as JSON. */
export interface RequestSpec {
  method: HttpMethod;
  /** Path and query, e.g. `/management/v1/threads?page[size]=50`. `[<id>]` is replaced per request when `idReplacement`. */
  path: string;
  headers?: Record<string, string>;
  /** A JSON value (sent with content-type application/json) or a raw string. */
  body?: unknown;
  /**
   * Several JSON bodies used round-robin, one per request, instead of `body` (e.g. one per seeded thread so that
   * concurrent requests spread over threads). Use at least twice as many as connections.
   */
  bodies?: unknown[];
  /** Several paths used round-robin, one per request, instead of `path` (e.g. list queries with different filters). */
  paths?: string[];
}

/** An extra measurement the load process makes besides (or instead of) autocannon. */
export type Probe =
  /** `count` sequential requests over an SSE route; time from sending to the first event named `event`, and to the end. */
  | { kind: 'sse-first-event'; request: RequestSpec; event: string; count: number }
  /** Opens `count` WebSocket sessions on `path` (waiting for `readyType` frames), holds them while the runner reads the server's memory. */
  | { kind: 'ws-idle'; path: string; protocols?: string[]; headers?: Record<string, string>; count: number; readyType: string };

/** One route of a fixed-rate mix (`steady-mix`): it gets its share of the rate and of the connections. */
export interface MixRoute {
  name: string;
  share: number;
  request: RequestSpec;
  idReplacement?: boolean;
}

/** What a scenario's `seed()` returns: how to load the service. */
export interface LoadPlan {
  /** The request sequence each autocannon connection repeats. Empty: no autocannon load (probes only). */
  requests: RequestSpec[];
  /** Replace `[<id>]` in paths and bodies by a unique id per request (autocannon's idReplacement). */
  idReplacement?: boolean;
  /** What one request is, for the table: "requests" (default), "turns", "accepts". */
  unit?: string;
  probes?: Probe[];
  /**
   * A fixed-rate mix instead of (or besides) `requests`: every route at once for `--duration`, at `--rate` req/s
   * in total (default: a third of the capacity the warm-up measures), with per-route latency and the service's
   * memory and event-loop delay sampled over time.
   */
  mix?: { connections: number; routes: MixRoute[] };
  /**
   * With `baseline: 'self'`: the load each run is paired with, sent to the service itself (e.g. the same sends into
   * 1-turn threads, to judge the cost of the same route as data grows). `label` names it in the report.
   */
  baseline?: { label: string; requests: RequestSpec[] };
  /** With `baseline: 'self'`: run after each baseline run, before the scenario's (e.g. give the threads back their single turn). */
  resetBaseline?(): Promise<void>;
  /**
   * Instead of `requests`: a backlog the service's workers drain, measured against the paired `baseline` load. Each
   * run, the baseline runs first (autocannon); then `prepare` gets as many items as the baseline completed (not
   * measured), the service's CPU is sampled around `start` … `finished`, and the rate is items ÷ `seconds`.
   */
  drain?: DrainPlan;
}

/** A backlog drained by the service itself (e.g. accepted events processed by its workers). */
export interface DrainPlan {
  /** Puts `count` items in place without letting the service work on them yet (e.g. events accepted while paused). */
  prepare(count: number): Promise<void>;
  /** Lets the service work on them. */
  start(): Promise<void>;
  /** Resolves once every item is done: how many ended well, how many failed, and the seconds from the first to the last. */
  finished(): Promise<{ done: number; failed: number; seconds: number }>;
}

/**
 * The paired run's server: the bare Fastify `/health` (default), one of the same-work baselines of
 * `bench/same-work-server.ts` loaded with the scenario's own requests, or `self`: the service loaded with the plan's
 * `baseline` requests.
 */
export type BaselineKind = 'bare-fastify' | 'turn-baseline' | 'accept-baseline' | 'list-baseline' | 'self';

/** The goal for a scenario, against its paired baseline; the report prints it with the verdict. */
export interface Goal {
  /** Minimum req/s ratio to the baseline (none when the goal is about CPU only). */
  ratio?: number;
  /** p99 at most this many times the baseline's p99. */
  p99Factor?: number;
  /** p95 at most this many milliseconds. */
  p95MaxMs?: number;
  /** CPU per request (service + PostgreSQL) at most this many times the baseline's. */
  cpuFactor?: number;
  /** The service process's CPU per request at most this many times the baseline's (PostgreSQL not counted). */
  serverCpuFactor?: number;
}

/** After a measured run (and `settle`): figures that check what the run must have done, e.g. every 202 durable. */
export type RunCheck = (run: { status_codes: Record<string, number> }) => Promise<Record<string, number>>;

export interface OrgCredentials {
  organizationId: string;
  apiKey: string;
  /** Headers that authenticate as this organization on the management surface. */
  headers: Record<string, string>;
}

export interface JsonResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** What a scenario can use while probing and seeding. Everything here belongs to this benchmark invocation. */
export interface BenchContext {
  /** Base URL of the service under test, e.g. `http://127.0.0.1:41234`. */
  readonly baseUrl: string;
  /** Pool on the benchmark's own database (`agent_bench`), as the service's role. */
  readonly db: Pool;
  /** Organization created for this invocation (via the CLI), with its API key. */
  readonly org: OrgCredentials;
  /** Another organization (via the CLI), for a scenario whose data must not mix with what other scenarios wrote. */
  createOrganization(name: string): Promise<OrgCredentials>;
  readonly connections: number;
  /**
   * `tuned`: rate limiting off, events-ingest's accepts measured with processing paused; `default`: the service's
   * defaults (rate limits counted, in-process workers processing meanwhile). See `EnvironmentOptions`.
   */
  readonly configuration: 'tuned' | 'default';
  /** Environment the service was started with (DATABASE_URL, REDIS_KEY_PREFIX, ...). */
  readonly serviceEnv: Readonly<Record<string, string>>;
  /** Redis key prefix of the service under test (`bench:<pid>`). */
  readonly redisPrefix: string;
  /** HTTP call to the service with a JSON body; throws unless the status is in `expect` (default 2xx). */
  request<T = unknown>(
    method: HttpMethod,
    path: string,
    options?: { headers?: Record<string, string>; body?: unknown; expect?: number[] },
  ): Promise<JsonResponse<T>>;
  /** True when the service's OpenAPI document has this operation, e.g. `hasRoute('POST', '/management/v1/projects/{projectId}/agents')`. */
  hasRoute(method: HttpMethod, path: string): Promise<boolean>;
  log(message: string): void;
}

/** `true`, or why the scenario cannot run against this build. */
export type Availability = true | { reason: string };

export interface Scenario {
  name: string;
  description: string;
  /** Sort key in listings and in `all` (lower first); default 100. */
  order?: number;
  /** Part of `npm run bench -- all` (default true). Tasks such as bulk seeding set false. */
  inAll?: boolean;
  /** Checked after the service is up and before seeding; a scenario that is not available is reported, never run. */
  available?(ctx: BenchContext): Promise<Availability>;
  seed(ctx: BenchContext): Promise<LoadPlan>;
  /** Called after each run (warm-up included), before the next CPU sample: e.g. wait for queued work to drain. */
  settle?(ctx: BenchContext): Promise<void>;
  /** What each run is paired with; default `bare-fastify`. */
  baseline?: BaselineKind;
  goal?: Goal;
  /**
   * The work each side of the pair does, named in the verdict line so that a ratio never compares unnamed work:
   * what the service does per request, and what its baseline does.
   */
  work?: { service: string; baseline: string };
  /** Called once the scenario's runs are over (also after a failure): e.g. undo what `seed` switched for them. */
  finish?(ctx: BenchContext): Promise<void>;
  /** Called just before each measured run of the service; the returned check runs after it settled (figures summed over runs). */
  check?(ctx: BenchContext): Promise<RunCheck>;
}

/** Helper so scenario files get type checking without importing the interface by name. */
export const defineScenario = (scenario: Scenario): Scenario => scenario;
