// The cluster as a test (docs/deploy.md, "From one replica to many"): 3 API replicas (WORKERS=off) and 2 workers of
// the built service behind HAProxy (round robin, no stickiness, health-checked on /health/ready) on loopback, one
// PostgreSQL database and one Redis key prefix of this run's own. Each check prints its figures; outcomes are
// asserted, never durations. The run ends with "cluster: N passed, N failed" (.ci/run adds it to its total).
//
// HAProxy connects to the replicas from 127.0.0.2 (its `source`), the replicas trust exactly that address
// (TRUST_PROXY), and this script's direct requests come from 127.0.0.1: so a forged X-Forwarded-For sent straight to
// a replica, or through the balancer, must change nothing.
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { HttpClient, type HttpResponse } from '../support/http.js';
import { deletePrefixKeys, freePort, ProcessRun, sleep, waitFor } from '../support/process-run.js';
import { openSse, type SseEvent } from '../support/sse-client.js';

const ADMIN_URL = process.env.CLUSTER_ADMIN_DATABASE_URL ?? 'postgres://agent_service:agent_service@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.CLUSTER_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const RUN = `c${process.pid}x${Date.now().toString(36).slice(-4)}`;
const DB_NAME = `agent_${RUN}_cluster`;
const PREFIX = `cluster:${RUN}`;
const ORG_KEY = `oak_cluster_${RUN}_0123456789`;
const OVERALL_LIMIT_MS = 420_000;
/** HAProxy's address towards the replicas: the one proxy they trust. */
const BALANCER_SOURCE = '127.0.0.2';
const QUESTIONS = ['show me trail shoes', 'do you have rain jackets', 'anything under $100', 'where is my order', 'show me backpacks'];

const dbUrl = () => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
};

const run = new ProcessRun('cluster', OVERALL_LIMIT_MS);
const LOG_DIR = run.logDir;
const check = (name: string, ok: boolean, figures = '') => run.check(name, ok, figures);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor((sorted.length - 1) / 2)]!;
}

// ---------------------------------------------------------------------------------------------------------------
// Processes

function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: dbUrl(),
    REDIS_URL,
    REDIS_KEY_PREFIX: PREFIX,
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'cluster-secret-0123456789abcdef0123456789abcdef',
    BOOTSTRAP_ORG_API_KEY: ORG_KEY,
    BOOTSTRAP_ORG_NAME: 'cluster',
    RATE_LIMIT_MAX: '0',
    TRUST_PROXY: BALANCER_SOURCE,
    DATABASE_EXPECTED_PROCESSES: '6',
    SHUTDOWN_DRAIN_MS: '2500',
    // The lease a killed worker's events wait out before the sweeper hands them on (the default is 2 minutes).
    EVENTS_LEASE_MS: '4000',
    EVENTS_STALE_MS: '2000',
    EVENTS_SWEEP_INTERVAL_MS: '1000',
    EVENTS_BACKOFF_MS: '200',
    ...extra,
  };
}

interface Replica {
  name: string;
  port: number;
  metricsPort: number;
  child?: ChildProcess;
  url: string;
  http: HttpClient;
}

async function startReplica(replica: Replica, migrate = false): Promise<void> {
  replica.child = run.spawn(
    replica.name,
    ['dist/src/main.js'],
    serviceEnv({
      PORT: String(replica.port),
      HOST: '127.0.0.1',
      WORKERS: 'off',
      METRICS_PORT: String(replica.metricsPort),
      INSTANCE_NAME: replica.name,
      MIGRATE_ON_START: String(migrate),
    }),
  );
}

async function replicaReady(replica: Replica): Promise<void> {
  const exited = () => replica.child !== undefined && replica.child.exitCode !== null;
  const state = await waitFor(
    `${replica.name} to be ready`,
    async () => (exited() ? 'exited' : (await fetch(`${replica.url}/health/ready`)).ok && 'ready'),
    120_000,
  );
  if (state === 'exited') throw new Error(`${replica.name} exited; see ${LOG_DIR}/${replica.name}.log`);
}

function startWorker(name: string, migrate = false): ChildProcess {
  return run.spawn(
    name,
    ['dist/src/worker.js'],
    serviceEnv({ WORKERS: 'on', METRICS_PORT: '0', INSTANCE_NAME: name, MIGRATE_ON_START: String(migrate) }),
  );
}

const stop = (child: ChildProcess | undefined, signal?: NodeJS.Signals) => run.stop(child, signal);

/** HAProxy in front of the replicas: round robin, health checks on /health/ready, X-Forwarded-For appended. */
async function startBalancer(replicas: Replica[]): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const config = [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 120s',
    '  timeout server 120s',
    '  retries 3',
    '  option redispatch',
    'frontend api',
    `  bind 127.0.0.1:${port}`,
    '  option forwardfor',
    '  default_backend replicas',
    'backend replicas',
    '  balance roundrobin',
    '  option httpchk GET /health/ready',
    '  http-check expect status 200',
    '  http-response set-header x-served-by %s',
    ...replicas.map((r) => `  server ${r.name} 127.0.0.1:${r.port} check inter 500ms fall 2 rise 2 source ${BALANCER_SOURCE}`),
    '',
  ].join('\n');
  const file = path.join(LOG_DIR, 'haproxy.cfg');
  writeFileSync(file, config);
  const child = run.spawn('haproxy', ['-db', '-f', file], undefined, 'haproxy');
  const url = `http://127.0.0.1:${port}`;
  await balancerServes(url, replicas.length);
  return { url, child };
}

/** Waits until `count` distinct replicas answer through the balancer (it marks servers up after two checks). */
async function balancerServes(url: string, count: number): Promise<void> {
  await waitFor(
    `the balancer to route to ${count} replicas`,
    async () => {
      const seen = new Set<string>();
      for (let i = 0; i < count * 3; i += 1) {
        const res = await fetch(`${url}/health/ready`);
        if (res.ok) seen.add(res.headers.get('x-served-by') ?? '');
      }
      return seen.size >= count;
    },
    60_000,
    250,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The service, through its API

async function ok<T = any>(promise: Promise<HttpResponse<T>>, status: number, step: string): Promise<T> {
  const res = await promise;
  if (res.status !== status) throw new Error(`${step}: expected ${status}, got ${res.status}: ${res.text}`);
  return res.body;
}

const org = { 'x-organization-api-key': ORG_KEY };

interface Agent {
  id: string;
  versionId: string;
  agentKey: Record<string, string>;
  publishableKey: string;
}

async function seedAgent(api: HttpClient, name: string): Promise<Agent> {
  const project = await ok(api.post('/management/v1/projects', { name }, org), 201, 'project');
  const agent = await ok(api.post(`/management/v1/projects/${project.id}/agents`, { name, runtime: 'v1' }, org), 201, 'agent');
  const version = await ok(
    api.post(`/management/v1/agents/${agent.id}/versions`, { source: 'template', template: 'shopping-assistant' }, org),
    201,
    'version',
  );
  await ok(api.post(`/management/v1/agents/${agent.id}/versions/${version.id}/publish`, undefined, org), 200, 'publish');
  const key = await ok(api.post(`/management/v1/agents/${agent.id}/api-keys`, {}, org), 201, 'api key');
  const pk = await ok(api.post(`/management/v1/agents/${agent.id}/publishable-keys`, {}, org), 201, 'publishable key');
  return { id: agent.id, versionId: version.id, agentKey: { 'x-agent-api-key': key.api_key }, publishableKey: pk.publishable_key };
}

async function bearer(api: HttpClient, publishableKey: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return api.post('/management/v1/auth/token', { grant_type: 'publishable_key', publishable_key: publishableKey }, headers);
}

async function token(api: HttpClient, agent: Agent): Promise<Record<string, string>> {
  const body = await ok(bearer(api, agent.publishableKey), 200, 'token');
  return { authorization: `Bearer ${body.access_token}` };
}

/** Posts `perThread` events on each of `threads` thread ids, each thread's in order; retries 502/503 as callers should. */
async function postEvents(
  api: HttpClient,
  agent: Agent,
  label: string,
  threads: number,
  perThread: number,
): Promise<Map<string, string[]>> {
  const accepted = new Map<string, string[]>();
  await Promise.all(
    Array.from({ length: threads }, async (_, t) => {
      const threadId = `${label}-${t}`;
      const ids: string[] = [];
      accepted.set(threadId, ids);
      for (let i = 0; i < perThread; i += 1) {
        for (let attempt = 0; ; attempt += 1) {
          // A connection cut by a dying replica is retried too: the caller cannot know, and the check allows it.
          const res = await api
            .post('/messaging/v1/events', { text: `${QUESTIONS[i % QUESTIONS.length]} #${i}`, thread_id: threadId }, agent.agentKey)
            .catch(() => ({ status: 502, body: undefined, text: 'connection lost' }));
          if (res.status === 202) {
            ids.push(res.body.event_id);
            break;
          }
          if ((res.status === 502 || res.status === 503) && attempt < 20) {
            await sleep(100);
            continue;
          }
          throw new Error(`event ${threadId}#${i}: ${res.status} ${res.text}`);
        }
      }
    }),
  );
  return accepted;
}

async function statuses(db: pg.Pool, ids: string[]): Promise<Record<string, number>> {
  const { rows } = await db.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM events WHERE id = ANY($1) GROUP BY status`,
    [ids],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

async function allDone(db: pg.Pool, ids: string[], timeoutMs: number, what: string): Promise<void> {
  await waitFor(
    what,
    async () => {
      const s = await statuses(db, ids);
      return (s.queued ?? 0) + (s.processing ?? 0) === 0;
    },
    timeoutMs,
    250,
  );
}

/** Every event completed, one turn each, and each thread's turns in acceptance order. */
async function verifyEvents(db: pg.Pool, label: string, accepted: Map<string, string[]>): Promise<void> {
  const ids = [...accepted.values()].flat();
  const s = await statuses(db, ids);
  const {
    rows: [turns],
  } = await db.query<{ turns: number; events: number }>(
    `SELECT count(*)::int AS turns, count(DISTINCT event_id)::int AS events FROM interactions WHERE event_id = ANY($1)`,
    [ids],
  );
  let outOfOrder = 0;
  for (const [threadId, eventIds] of accepted) {
    const { rows } = await db.query<{ event_id: string }>(
      `SELECT i.event_id FROM interactions i JOIN threads t ON t.id = i.thread_id WHERE t.external_id = $1 ORDER BY i.seq`,
      [threadId],
    );
    if (rows.map((r) => r.event_id.trim()).join(',') !== eventIds.join(',')) outOfOrder += 1;
  }
  check(
    `${label}: all ${ids.length} events completed once, in order on every thread`,
    s.completed === ids.length && turns?.turns === ids.length && turns.events === ids.length && outOfOrder === 0,
    `statuses ${JSON.stringify(s)}, ${turns?.turns} turns for ${turns?.events} events, ${outOfOrder}/${accepted.size} threads out of order`,
  );
}

async function scrape(replica: Replica): Promise<string> {
  return (await fetch(`http://127.0.0.1:${replica.metricsPort}/metrics`)).text();
}

function gauge(text: string, name: string): number[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
}

/** Sends turns through the balancer from `clients` concurrent callers until stopped: every answer is recorded. */
function load(api: HttpClient, agent: Agent, headers: Record<string, string>, clients: number) {
  let running = true;
  const answers: Record<string, number> = {};
  const interactions: string[] = [];
  const workers = Array.from({ length: clients }, async (_, c) => {
    let thread: string | undefined;
    while (running) {
      let key: string;
      try {
        const res = await api.post(
          '/messaging/v1/messages',
          { text: 'show me trail shoes', user_id: `load-${c}`, thread_id: thread },
          headers,
        );
        key = String(res.status);
        if (res.status === 200) {
          thread = res.body.thread_id;
          interactions.push(res.body.interaction_id);
        }
      } catch (error) {
        key = `network ${(error as { cause?: { code?: string } }).cause?.code ?? 'error'}`;
      }
      answers[key] = (answers[key] ?? 0) + 1;
      await sleep(100);
    }
  });
  return {
    answers,
    interactions,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${DB_NAME}"`);
  const db = new pg.Pool({ connectionString: dbUrl(), max: 4 });
  db.on('error', () => undefined);
  const replicas: Replica[] = [];
  for (let i = 1; i <= 3; i += 1) {
    const port = await freePort();
    replicas.push({
      name: `api-${i}`,
      port,
      metricsPort: await freePort(),
      url: `http://127.0.0.1:${port}`,
      http: new HttpClient(`http://127.0.0.1:${port}`),
    });
  }
  const workers: ChildProcess[] = [];
  try {
    // Five processes start at once on an empty database: the migrations run exactly once.
    const t0 = Date.now();
    for (const replica of replicas) await startReplica(replica, true);
    workers.push(startWorker('worker-1', true), startWorker('worker-2', true));
    await Promise.all(replicas.map(replicaReady));
    const { rows: migrations } = await db.query<{ name: string; n: number }>(
      `SELECT name, count(*)::int AS n FROM schema_migrations GROUP BY name`,
    );
    check(
      'start: 5 processes on an empty database migrate exactly once',
      migrations.length > 0 && migrations.every((m) => m.n === 1),
      `${migrations.length} migrations, each applied ${[...new Set(migrations.map((m) => m.n))].join('/')} time(s); replicas ready in ${Date.now() - t0} ms`,
    );
    const balancer = await startBalancer(replicas);
    const lb = new HttpClient(balancer.url);
    console.log(`     balancer ${balancer.url} → ${replicas.map((r) => r.url).join(', ')}; logs in ${LOG_DIR}`);

    // 1. The journey, every step through the balancer (so across replicas).
    const steps: string[] = [];
    const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
      const value = await run();
      steps.push(name);
      return value;
    };
    const agent = await step('seed agent (project, agent, version, publish, keys)', () => seedAgent(lb, 'journey'));
    const auth = await step('token exchange', () => token(lb, agent));
    await step('welcome message', () => ok(lb.get('/messaging/v1/welcome-message', auth), 200, 'welcome'));
    const first = await step('send (new thread)', () =>
      ok(lb.post('/messaging/v1/messages', { text: 'show me trail shoes', user_id: 'journey' }, auth), 200, 'send'),
    );
    await step('send (same thread)', () =>
      ok(
        lb.post('/messaging/v1/messages', { text: 'anything under $100', user_id: 'journey', thread_id: first.thread_id }, auth),
        200,
        'send 2',
      ),
    );
    await step('thread read', () => ok(lb.get(`/management/v1/threads/${first.thread_id}`, org), 200, 'thread'));
    const transcript = await step('transcript', () =>
      ok(lb.get(`/management/v1/threads/${first.thread_id}/messages`, org), 200, 'messages'),
    );
    await step('trace', () => ok(lb.get(`/management/v1/interactions/${first.interaction_id}/trace`, org), 200, 'trace'));
    const event = await step('event accepted', () =>
      ok(lb.post('/messaging/v1/events', { text: 'where is my order', thread_id: 'journey' }, agent.agentKey), 202, 'event'),
    );
    await step('event completed', () =>
      waitFor(
        'the journey event',
        async () => (await lb.get(`/messaging/v1/events/${event.event_id}`, agent.agentKey)).body.status === 'completed',
        30_000,
      ),
    );
    await step('thread list', () => ok(lb.get('/management/v1/threads', org), 200, 'threads'));
    await step('usage', () => ok(lb.get(`/management/v1/agents/${agent.id}/usage`, org), 200, 'usage'));
    check('journey: every step through the balancer', steps.length === 12 && transcript.results.length >= 4, `${steps.length}/12 steps`);

    // 2. SSE: a stream started on one replica, dropped, resumed on another.
    let exact = 0;
    const resumes = 24;
    for (let i = 0; i < resumes; i += 1) {
      const from = replicas[i % 3]!;
      const to = replicas[(i + 1) % 3]!;
      const stream = await openSse(from.url, '/messaging/v1/messages/stream', {
        headers: auth,
        body: { text: QUESTIONS[i % 5], user_id: `sse-${i}` },
      });
      const head = await stream.collect((e) => e.event === 'thread');
      stream.abort();
      const lastId = head[head.length - 1]!.id!;
      const resumed = await openSse(to.url, '/messaging/v1/messages/stream', {
        headers: auth,
        body: { text: 'x', user_id: `sse-${i}` },
        lastEventId: lastId,
      });
      const rest: SseEvent[] = await resumed.collect((e) => e.event === 'done' || e.event === 'error');
      const seqs = [...head, ...rest].map((e) => Number(e.id?.split(':')[1]));
      const contiguous = seqs.every((s, k) => s === k + 1);
      if (resumed.status === 200 && contiguous && rest[rest.length - 1]?.event === 'done' && rest.some((e) => e.event === 'message')) {
        exact += 1;
      }
    }
    check(
      'sse: streams resumed exactly on another replica',
      exact === resumes,
      `${exact}/${resumes} exact (every event once, in order, ending with done)`,
    );

    // 3. Revocation: once the DELETE has answered, no replica accepts the key.
    const revoked = await ok(lb.post(`/management/v1/agents/${agent.id}/api-keys`, {}, org), 201, 'api key to revoke');
    const revokedHeaders = { 'x-agent-api-key': revoked.api_key };
    for (const replica of replicas) {
      await ok(replica.http.get(`/messaging/v1/events/${event.event_id}`, revokedHeaders), 200, 'warm the key');
    }
    await ok(replicas[0]!.http.delete(`/management/v1/agents/${agent.id}/api-keys/${revoked.id}`, org), 204, 'revoke');
    let acceptedAfter = 0;
    let polls = 0;
    for (let round = 0; round < 10; round += 1) {
      for (const replica of replicas) {
        polls += 1;
        if ((await replica.http.get(`/messaging/v1/events/${event.event_id}`, revokedHeaders)).status !== 401) acceptedAfter += 1;
      }
    }
    check(
      'revocation: refused on every replica as soon as the revoke returned',
      acceptedAfter === 0,
      `${acceptedAfter} of ${polls} polls accepted after the revocation`,
    );

    // 4. Publish propagation: a new live version is served by every replica.
    const pulled = await ok(
      lb.get(`/management/v1/agents/${agent.id}/versions/${agent.versionId}/pull?version_tag=v1.0`, org),
      200,
      'pull',
    );
    const v2 = await ok(
      lb.post(`/management/v1/agents/${agent.id}/versions`, { source: 'clone', from_version_id: agent.versionId }, org),
      201,
      'version 2',
    );
    const welcome = `Welcome from version 2 (${RUN})`;
    await ok(
      lb.post(`/management/v1/agents/${agent.id}/versions/${v2.id}/push`, { bundle: { ...pulled.bundle, welcome_message: welcome } }, org),
      200,
      'push',
    );
    const published = Date.now();
    await ok(replicas[0]!.http.post(`/management/v1/agents/${agent.id}/versions/${v2.id}/publish`, undefined, org), 200, 'publish 2');
    const seenAfter = await Promise.all(
      replicas.map((replica) =>
        waitFor(
          `${replica.name} to serve version 2`,
          async () =>
            (await replica.http.get('/messaging/v1/welcome-message', auth)).body.welcome_message === welcome
              ? Date.now() - published
              : false,
          10_000,
          5,
        ).catch(() => -1),
      ),
    );
    check(
      'publish: the new live version served by every replica',
      seenAfter.every((ms) => ms >= 0),
      `seen ${seenAfter.map((ms, i) => `${replicas[i]!.name} ${ms} ms`).join(', ')} after the publish (median ${median(seenAfter)} ms)`,
    );

    // 5. 1,000 events through the balancer with a worker killed by kill -9 mid-run.
    const killedAt: Record<string, number> = {};
    const accept0 = Date.now();
    const acceptance = postEvents(lb, agent, 'kill', 20, 50);
    await waitFor(
      '100 events completed',
      async () =>
        (
          await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM events WHERE status = 'completed' AND external_thread_id LIKE 'kill-%'`,
          )
        ).rows[0]!.n >= 100,
      120_000,
    );
    const before = (
      await db.query<{ completed: number; processing: number }>(
        `SELECT count(*) FILTER (WHERE status = 'completed')::int AS completed, count(*) FILTER (WHERE status = 'processing')::int AS processing
         FROM events WHERE external_thread_id LIKE 'kill-%'`,
      )
    ).rows[0]!;
    Object.assign(killedAt, before);
    await stop(workers[0], 'SIGKILL');
    workers[0] = startWorker('worker-1b');
    const accepted = await acceptance;
    const acceptMs = Date.now() - accept0;
    const ids = [...accepted.values()].flat();
    const drain0 = Date.now();
    await allDone(db, ids, 180_000, '1,000 events to finish');
    console.log(
      `     events: kill -9 worker-1 with ${killedAt.completed} completed and ${killedAt.processing} processing; ${ids.length} accepted in ${acceptMs} ms; ` +
        `all finished ${Date.now() - drain0} ms after the last accept (lease ${serviceEnv({}).EVENTS_LEASE_MS} ms)`,
    );
    await verifyEvents(db, 'events: 1,000 through a worker kill -9', accepted);

    // 6. A stall Bull cannot see: both workers stopped (SIGSTOP), events wait in PostgreSQL; the gauge moves.
    for (const worker of workers) worker.kill('SIGSTOP');
    const stalled = await postEvents(lb, agent, 'stall', 5, 4);
    const stalledAge = await waitFor(
      'the PostgreSQL backlog gauge to pass 3 s',
      async () => {
        const oldest = Math.max(...gauge(await scrape(replicas[1]!), 'agent_events_oldest_due_age_seconds'));
        return oldest > 3 ? oldest : false;
      },
      30_000,
      250,
    );
    const text = await scrape(replicas[2]!);
    const due = gauge(text, 'agent_events_due').reduce((a, b) => a + b, 0);
    const bullWaiting = text.split('\n').find((l) => l.startsWith('agent_queue_jobs{queue="events",state="waiting"}')) ?? 'absent';
    for (const worker of workers) worker.kill('SIGCONT');
    await allDone(db, [...stalled.values()].flat(), 60_000, 'the stalled events to finish');
    const after = await waitFor(
      'the backlog gauge back to 0',
      async () => (Math.max(...gauge(await scrape(replicas[0]!), 'agent_events_oldest_due_age_seconds')) === 0 ? 'zero' : false),
      30_000,
      250,
    );
    check(
      'stall: the PostgreSQL backlog gauge moves while workers are stopped, and returns to 0',
      stalledAge > 3 && due === 20 && after === 'zero',
      `oldest due ${stalledAge.toFixed(1)} s, ${due} due on another replica, Bull's ${bullWaiting.replace(/^agent_queue_jobs\{[^}]*\} /, 'waiting ')}`,
    );

    // 7. A replica killed by kill -9 under light load: nothing it accepted is lost.
    const light = load(lb, agent, auth, 4);
    const lightEvents = postEvents(lb, agent, 'crash', 4, 10);
    await sleep(1500);
    await stop(replicas[2]!.child, 'SIGKILL');
    await sleep(2000);
    await light.stop();
    const crashEvents = await lightEvents;
    const crashIds = [...crashEvents.values()].flat();
    await allDone(db, crashIds, 60_000, 'the events accepted around the crash to finish');
    const { rows: stored } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM interactions WHERE id = ANY($1)`, [
      light.interactions,
    ]);
    check(
      'replica kill -9: every answered turn and accepted event is stored',
      stored[0]!.n === light.interactions.length && (await statuses(db, crashIds)).completed === crashIds.length,
      `answers ${JSON.stringify(light.answers)}; ${stored[0]!.n}/${light.interactions.length} turns stored; ${crashIds.length} events completed`,
    );
    await startReplica(replicas[2]!);
    await replicaReady(replicas[2]!);
    await balancerServes(balancer.url, 3);

    // 8. A rolling restart with SIGTERM under load: no failed request.
    const rolling = load(lb, agent, auth, 4);
    const exits: Array<number | null> = [];
    for (const replica of replicas) {
      exits.push(await stop(replica.child, 'SIGTERM'));
      await startReplica(replica);
      await replicaReady(replica);
      await balancerServes(balancer.url, 3);
    }
    await rolling.stop();
    const rollingFailed = Object.entries(rolling.answers)
      .filter(([status]) => status !== '200')
      .reduce((sum, [, n]) => sum + n, 0);
    check(
      'rolling restart (SIGTERM, one replica at a time): no failed request',
      rollingFailed === 0 && exits.every((code) => code === 0),
      `answers ${JSON.stringify(rolling.answers)}; exit codes ${exits.join(', ')}`,
    );

    // 9. X-Forwarded-For: forged headers change nothing; the balancer's entry is used.
    const restricted = await ok(
      lb.post(`/management/v1/agents/${agent.id}/publishable-keys`, { allowed_ip_ranges: ['198.51.100.0/24'] }, org),
      201,
      'key',
    );
    const loopbackOnly = await ok(
      lb.post(`/management/v1/agents/${agent.id}/publishable-keys`, { allowed_ip_ranges: ['127.0.0.1/32'] }, org),
      201,
      'key',
    );
    const forged = { 'x-forwarded-for': '198.51.100.7' };
    const viaBalancer = (await bearer(lb, restricted.publishable_key, forged)).status;
    const direct = (await bearer(replicas[0]!.http, restricted.publishable_key, forged)).status;
    const real = (await bearer(lb, loopbackOnly.publishable_key, { 'x-forwarded-for': '198.51.100.7' })).status;
    check(
      'x-forwarded-for: a key limited to 198.51.100.0/24 refuses a forged header; the balancer-reported client is used',
      viaBalancer === 400 && direct === 400 && real === 200,
      `forged via balancer ${viaBalancer}, forged direct ${direct}, 127.0.0.1/32 key via balancer ${real}`,
    );
  } finally {
    await run.stopAll();
    await db.end();
    await admin.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    const redis = new Redis(REDIS_URL);
    await deletePrefixKeys(redis, PREFIX);
    redis.disconnect();
  }
}

await run.run(main);
