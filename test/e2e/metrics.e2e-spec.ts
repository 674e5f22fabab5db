import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { MetricsService } from '../../src/modules/metrics/metrics.service.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { startFakeOpenAI, type FakeServer } from '../support/fake-openai-server.js';
import { openSse } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';

const HEX_ID = /\b[0-9a-f]{24}\b/;
const SEND_ROUTE = '/messaging/v1/messages';

/** One series of the exposition: name and labels. */
interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseExposition(text: string): Series[] {
  const series: Series[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    series.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return series;
}

/** The sum of the series named `name` whose labels include `labels`. */
function valueOf(series: Series[], name: string, labels: Record<string, string> = {}): number {
  return series
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

async function scrape(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; contentType: string | null; text: string }> {
  const res = await fetch(url, { headers });
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
}

/** `promtool check metrics` on the exposition (Debian's `prometheus` package); missing promtool fails the test. */
function promtoolCheck(text: string): { status: number | null; output: string } {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (run.error) throw new Error(`promtool is required (apt-get install prometheus): ${run.error.message}`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Polls `probe` until it returns a value (not undefined), bounded; never a fixed sleep. */
/** One WebSocket turn: opens a session, sends one message, waits for its `done` frame; `whileOpen` runs before closing. */
async function wsTurn(t: TestApp, agent: LiveTestAgent, whileOpen: () => Promise<void>): Promise<void> {
  const socket = new WebSocket(`${t.baseUrl.replace(/^http/, 'ws')}/messaging/v1/session`, { headers: agent.headers });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no done frame')), 10_000);
      socket.on('error', reject);
      socket.on('message', (data) => {
        const frame = JSON.parse(data.toString());
        if (frame.type === 'ready') socket.send(JSON.stringify({ type: 'message', id: 'm1', text: 'show me jackets', user_id: 'u-ws' }));
        if (frame.type === 'error') reject(new Error(JSON.stringify(frame)));
        if (frame.type === 'done' && frame.id === 'm1') {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    await whileOpen();
  } finally {
    socket.close();
  }
}

describe('Prometheus metrics (API process)', () => {
  let t: TestApp;
  let org: TestOrg;
  let shop: LiveTestAgent;
  let metricsUrl: string;
  let fake: FakeServer;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp({ METRICS_PORT: '0', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', PROVIDER_TIMEOUT_MS: '5000' });
    await t.reset();
    // What `main` does after listening.
    metricsUrl = (await t.app.get(MetricsService).listen())!;
    org = await t.factory.org();
    shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('counts exactly one JSON send, one SSE stream, one WebSocket turn and one event, and stays promtool-valid', async () => {
    expect(new URL(metricsUrl).port).toBe(String(t.app.get(MetricsService).port));
    const before = parseExposition((await scrape(metricsUrl)).text);

    expectStatus(
      await t.http.post(SEND_ROUTE, { text: 'I am looking for trail shoes', user_id: 'u-json' }, shop.headers),
      200,
      'json send',
    );
    const events = await (
      await openSse(t.baseUrl, '/messaging/v1/messages/stream', {
        headers: shop.headers,
        body: { text: 'show me jackets', user_id: 'u-sse' },
      })
    ).collect();
    expect(events.at(-1)!.event).toBe('done');
    await wsTurn(t, shop, async () => {
      const open = parseExposition((await scrape(metricsUrl)).text);
      expect(valueOf(open, 'agent_ws_sessions_open')).toBe(1);
    });
    const key = expectStatus(await t.http.post(`/management/v1/agents/${shop.agentId}/api-keys`, {}, org.headers), 201, 'agent api key')
      .body.api_key;
    const accepted = expectStatus(
      await t.http.post('/messaging/v1/events', { text: 'where is my order', user_id: 'u-event' }, { 'x-agent-api-key': key }),
      202,
      'event',
    ).body;
    await waitFor(async () => {
      const [row] = await t.dataSource.query(`SELECT status FROM events WHERE id = $1`, [accepted.event_id]);
      return row?.status === 'completed' ? true : undefined;
    }, 'the event to complete');
    // The counter moves right after the row is marked completed; streams and sessions close asynchronously.
    // The last values seen go into the timeout message, so a run that does not settle says which one stuck.
    let seen = { completed: 0, sse: 0, ws: 0 };
    const after = await waitFor(async () => {
      const s = parseExposition((await scrape(metricsUrl)).text);
      seen = {
        completed: valueOf(s, 'agent_events_processed_total', { outcome: 'completed' }),
        sse: valueOf(s, 'agent_sse_streams_open'),
        ws: valueOf(s, 'agent_ws_sessions_open'),
      };
      return seen.completed === 1 && seen.sse === 0 && seen.ws === 0 ? s : undefined;
    }, 'the event to be counted and streams to close').catch((error: Error) => {
      throw new Error(`${error.message}; last seen ${JSON.stringify(seen)}`);
    });
    const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);

    const turn = { runtime: 'v1', provider: 'builtin', outcome: 'ok' };
    for (const surface of ['json', 'sse', 'ws', 'events']) {
      expect([surface, moved('agent_turns_total', { ...turn, surface })]).toEqual([surface, 1]);
    }
    expect(moved('agent_turns_total')).toBe(4);
    expect(moved('agent_turn_duration_seconds_count', { runtime: 'v1', provider: 'builtin' })).toBe(4);
    expect(moved('agent_events_accepted_total')).toBe(1);
    expect(moved('agent_events_processed_total', { outcome: 'completed' })).toBe(1);
    expect(moved('agent_events_processed_total', { outcome: 'failed' })).toBe(0);
    expect(moved('agent_event_processing_lag_seconds_count')).toBe(1);
    expect(moved('agent_http_requests_total', { method: 'POST', route: SEND_ROUTE, status_class: '2xx' })).toBe(1);
    expect(moved('agent_http_request_duration_seconds_count', { method: 'POST', route: SEND_ROUTE, status_class: '2xx' })).toBe(1);
    expect(moved('agent_http_requests_total', { method: 'POST', route: '/messaging/v1/events', status_class: '2xx' })).toBe(1);
    expect(moved('agent_provider_errors_total')).toBe(0);
    // Tokens: what the four turns recorded, by kind.
    const [usage] = await t.dataSource.query(`SELECT sum(input_tokens)::int AS input, sum(output_tokens)::int AS output FROM interactions`);
    expect(usage.input).toBeGreaterThan(0);
    expect(moved('agent_tokens_total', { provider: 'builtin', kind: 'input' })).toBe(usage.input);
    expect(moved('agent_tokens_total', { provider: 'builtin', kind: 'output' })).toBe(usage.output);
    // The live-agent cache was asked for every turn (sessions and ingestion ask too) and mostly answered.
    expect(moved('agent_cache_lookups_total', { cache: 'live_agents' })).toBeGreaterThanOrEqual(4);
    expect(moved('agent_cache_lookups_total', { cache: 'live_agents', result: 'hit' })).toBeGreaterThan(0);
    expect(moved('agent_cache_lookups_total', { cache: 'credentials', result: 'hit' })).toBeGreaterThan(0);
    // Sampled at scrape: queues and the pool.
    expect(after.some((s) => s.name === 'agent_queue_jobs' && s.labels.queue === 'events' && s.labels.state === 'waiting')).toBe(true);
    expect(after.some((s) => s.name === 'agent_queue_oldest_waiting_age_seconds' && s.labels.queue === 'channels-outbound')).toBe(true);
    expect(
      valueOf(after, 'agent_db_pool_connections', { state: 'idle' }) + valueOf(after, 'agent_db_pool_connections', { state: 'in_use' }),
    ).toBeGreaterThan(0);
    expect(after.some((s) => s.name === 'agent_rate_limit_fail_open_total' && s.labels.area === 'login_attempts')).toBe(true);
    expect(after.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);

    // Cardinality: no label value is (or carries) an id.
    const text = (await scrape(metricsUrl)).text;
    const withIds = parseExposition(text).filter((s) => Object.values(s.labels).some((v) => HEX_ID.test(v)));
    expect(withIds).toEqual([]);
    expect(text).not.toContain(shop.agentId);
    expect(promtoolCheck(text)).toEqual({ status: 0, output: expect.any(String) });
  });

  it('counts a failed provider turn by provider and kind (429 rate_limited, 400 rejected)', async () => {
    const model = { provider: 'openai' as const, name: 'gpt-4o-mini', temperature: 0, max_output_tokens: 300 };
    const agent = await liveAgent(t, org, { bundle: { ...shopBundle, model }, runtime: 'v1' });
    const before = parseExposition((await scrape(metricsUrl)).text);
    expectStatus(
      await t.http.post(SEND_ROUTE, { text: 'show me jackets [[fail:429]]', user_id: 'u1' }, agent.headers),
      502,
      'rate limited by the provider',
    );
    expectStatus(
      await t.http.post(SEND_ROUTE, { text: 'show me jackets [[fail:400]]', user_id: 'u1' }, agent.headers),
      502,
      'refused by the provider',
    );
    const after = parseExposition((await scrape(metricsUrl)).text);
    const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);

    expect(moved('agent_provider_errors_total', { provider: 'openai', kind: 'rate_limited' })).toBe(1);
    expect(moved('agent_provider_errors_total', { provider: 'openai', kind: 'rejected' })).toBe(1);
    expect(moved('agent_provider_errors_total')).toBe(2);
    expect(moved('agent_turns_total', { surface: 'json', runtime: 'v1', provider: 'openai', outcome: 'error' })).toBe(2);
    expect(moved('agent_turns_total', { outcome: 'ok' })).toBe(0);
    expect(moved('agent_http_requests_total', { method: 'POST', route: SEND_ROUTE, status_class: '5xx' })).toBe(2);
  });

  it('serves the exposition format on GET /metrics only, and never on the public port', async () => {
    const res = await scrape(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect((await scrape(metricsUrl.replace(/\/metrics$/, '/other'))).status).toBe(404);

    const publicAnswer = await t.http.get('/metrics');
    expect(publicAnswer.status).toBe(404);
    expect(publicAnswer.body).toEqual({ error: { code: 'not_found', message: expect.any(String), request_id: expect.any(String) } });
    const s = parseExposition((await scrape(metricsUrl)).text);
    expect(valueOf(s, 'agent_http_requests_total', { method: 'GET', route: 'unmatched', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
  });
});

describe('Prometheus metrics: a metrics port already taken', () => {
  it('leaves the process running without a metrics listener (and says so) instead of failing it', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const t = await createTestApp({ METRICS_PORT: String(port) });
    try {
      await expect(t.app.get(MetricsService).listen()).resolves.toBeUndefined();
      expect((await t.http.get('/health')).status).toBe(200);
    } finally {
      await t.close();
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('Prometheus metrics (worker process)', () => {
  let worker: ChildProcessWithoutNullStreams;
  let exited: Promise<number | null>;
  let url: string;
  const token = 'metrics-token-0123456789';

  beforeAll(async () => {
    // Its own Redis prefix: this worker's processors never take the jobs of other apps of this test run.
    worker = spawn(process.execPath, ['dist/src/worker.js'], {
      env: {
        ...process.env,
        LOG_LEVEL: 'info',
        METRICS_PORT: '0',
        METRICS_TOKEN: token,
        REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX}-worker`,
      },
    });
    const logs: string[] = [];
    exited = new Promise((resolve) => worker.on('exit', (code) => resolve(code)));
    url = await new Promise<string>((resolve, reject) => {
      let buffer = '';
      worker.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          logs.push(line);
          const match = /"metricsUrl":"([^"]+)"/.exec(line);
          if (match) resolve(match[1]!);
        }
      });
      worker.stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
      void exited.then((code) => reject(new Error(`worker exited with ${code}: ${logs.join('\n')}`)));
    });
  });
  afterAll(async () => {
    if (worker.exitCode === null) worker.kill('SIGKILL');
    await exited;
  });

  it('serves its own registry with the queue gauges behind METRICS_TOKEN, and closes it on SIGTERM', async () => {
    expect((await scrape(url)).status).toBe(401);
    expect((await scrape(url, { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
    const res = await scrape(url, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    const s = parseExposition(res.text);
    for (const queue of ['events', 'channels-outbound']) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) {
        expect([
          queue,
          state,
          s.some((x) => x.name === 'agent_queue_jobs' && x.labels.queue === queue && x.labels.state === state),
        ]).toEqual([queue, state, true]);
      }
    }
    expect(s.some((x) => x.name === 'process_cpu_seconds_total')).toBe(true);
    expect(promtoolCheck(res.text).status).toBe(0);

    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });
});
