// The round-trip budget (docs/performance.md, "Round-trip budget"): the SQL statements and Redis round trips that
// one request of each hot kind costs, counted at the clients. A change that adds a round trip fails here, not in a
// benchmark weeks later.
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { Redis } from 'ioredis';
import { liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import type { TestOrg } from '../factories/factory.js';

interface Recorded {
  /** Each statement's first words (every pg query is one round trip). */
  sql: string[];
  /** Redis commands grouped by round trip: the commands written in one synchronous burst (a pipeline, a MULTI). */
  redis: string[][];
  burstOpen: boolean;
}

/**
 * Statements and commands are attributed to the request that caused them through the async context the HTTP
 * server's 'request' event starts, so the app's background work (sweeper, gauges, other tests' requests) never counts.
 */
const requestContext = new AsyncLocalStorage<Recorded>();
let recording: Recorded | null = null;

const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const into = requestContext.getStore();
  if (into) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first.text ?? '');
    into.sql.push(text.replace(/\s+/g, ' ').trim().split(' ').slice(0, 3).join(' '));
  }
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

const originalSend = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function (this: Redis, command, stream) {
  const into = requestContext.getStore();
  if (into) {
    if (!into.burstOpen) {
      into.redis.push([]);
      into.burstOpen = true;
      setImmediate(() => (into.burstOpen = false));
    }
    into.redis.at(-1)!.push(command.name);
  }
  return originalSend.call(this, command, stream);
};

async function record(request: () => Promise<{ status: number }>, status: number): Promise<Recorded> {
  recording = { sql: [], redis: [], burstOpen: false };
  try {
    expect((await request()).status).toBe(status);
    // Work the response does not wait for (none today) would land here and count against the request.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return recording;
  } finally {
    recording = null;
  }
}

describe('round-trip budget (per request, after warm-up)', () => {
  let t: TestApp;
  let org: TestOrg;
  let shop: LiveTestAgent;
  beforeAll(async () => {
    t = await createTestApp({ WORKERS: 'off', EVENTS_POLL_MS: '60000' });
    org = await t.factory.org();
    shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    t.app.getHttpServer().prependListener('request', () => {
      if (recording) requestContext.enterWith(recording);
    });
  });
  afterAll(() => t.close());

  const SEND = '/messaging/v1/messages';
  const RATE_LIMIT_WINDOW = ['incr', 'expire'];

  it('a send into an existing thread: one read, one write statement, one Redis round trip (the rate-limit window)', async () => {
    const first = await t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: 'u1' }, shop.headers);
    const body = { text: 'Any in size 42?', user_id: 'u1', thread_id: first.body.thread_id };
    await t.http.post(SEND, body, shop.headers);
    const seen = await record(() => t.http.post(SEND, body, shop.headers), 200);
    expect(seen.sql).toHaveLength(2);
    expect(seen.sql[0]).toMatch(/^SELECT /);
    expect(seen.sql[1]).not.toMatch(/^(BEGIN|START TRANSACTION)/);
    expect(seen.redis).toEqual([RATE_LIMIT_WINDOW]);
  });

  it('a send into a thread an operator holds (docs/handoff.md): the same read, then the message alone in one write', async () => {
    const first = await t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: 'u-held' }, shop.headers);
    const threadId = first.body.thread_id;
    const user = await t.factory.user(org);
    const login = await t.http.post('/management/v1/auth/token', { grant_type: 'password', username: user.email, password: user.password });
    const operator = { authorization: `Bearer ${login.body.access_token}` };
    expect((await t.http.post(`/management/v1/threads/${threadId}/takeover`, undefined, operator)).status).toBe(200);
    const body = { text: 'Any in size 42?', user_id: 'u-held', thread_id: threadId };
    await t.http.post(SEND, body, shop.headers);
    const seen = await record(() => t.http.post(SEND, body, shop.headers), 202);
    // The thread read (control included), then the item's compare-and-set write in the transaction that announces it.
    expect(seen.sql).toEqual([
      expect.stringMatching(/^SELECT /),
      expect.stringMatching(/^(BEGIN|START TRANSACTION)/),
      expect.stringMatching(/^WITH t AS/),
      expect.stringMatching(/^COMMIT/),
    ]);
    expect(seen.redis[0]).toEqual(RATE_LIMIT_WINDOW);
  });

  it('a send that starts a thread: one write statement, one Redis round trip', async () => {
    await t.http.post(SEND, { text: 'hello', user_id: 'u2' }, shop.headers);
    const seen = await record(() => t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: 'u2' }, shop.headers), 200);
    expect(seen.sql).toHaveLength(1);
    expect(seen.sql[0]).not.toMatch(/^(SELECT|BEGIN|START TRANSACTION)/);
    expect(seen.redis).toEqual([RATE_LIMIT_WINDOW]);
  });

  it('an event accept: one INSERT (group commit), the rate-limit window and one enqueue', async () => {
    const key = (await t.http.post(`/management/v1/agents/${shop.agentId}/api-keys`, {}, org.headers)).body.api_key;
    const headers = { 'x-agent-api-key': key };
    const event = (n: number) => ({ thread_id: `ext-${n}`, user_id: 'u3', text: 'I am looking for trail shoes' });
    await t.http.post('/messaging/v1/events', event(1), headers);
    const seen = await record(() => t.http.post('/messaging/v1/events', event(2), headers), 202);
    expect(seen.sql).toEqual([expect.stringMatching(/^INSERT INTO events/)]);
    expect(seen.redis).toHaveLength(2);
    expect(seen.redis[0]).toEqual(RATE_LIMIT_WINDOW);
  });

  it('with a traffic split, sends cost the same: the split is cached with the live revision (docs/releases.md)', async () => {
    const h = org.headers;
    const clone = await t.http.post(
      `/management/v1/agents/${shop.agentId}/versions`,
      { source: 'clone', from_version_id: shop.versionId },
      h,
    );
    await t.http.post(`/management/v1/agents/${shop.agentId}/versions/${clone.body.id}/publish`, undefined, h);
    await t.http.post(`/management/v1/agents/${shop.agentId}/versions/${shop.versionId}/publish`, undefined, h);
    const split = {
      splits: [
        { version_id: shop.versionId, percent: 50 },
        { version_id: clone.body.id, percent: 50 },
      ],
    };
    expect((await t.http.request('PUT', `/management/v1/agents/${shop.agentId}/traffic`, { body: split, headers: h })).status).toBe(200);
    // Users on both arms: u-split-0..7 spread over the two buckets' halves.
    for (let i = 0; i < 8; i += 1) {
      const user = `u-split-${i}`;
      const first = await t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: user }, shop.headers);
      const body = { text: 'Any in size 42?', user_id: user, thread_id: first.body.thread_id };
      const existing = await record(() => t.http.post(SEND, body, shop.headers), 200);
      expect(existing.sql).toHaveLength(2);
      const fresh = await record(() => t.http.post(SEND, { text: 'hello', user_id: user }, shop.headers), 200);
      expect(fresh.sql).toHaveLength(1);
    }
    const tags = await t.dataSource.query(`SELECT DISTINCT version_tag FROM threads WHERE agent_id = $1 AND user_id LIKE 'u-split-%'`, [
      shop.agentId,
    ]);
    expect(tags).toHaveLength(2); // both arms answered
  });

  it('a thread list page: one SELECT, one Redis round trip', async () => {
    await t.http.get('/management/v1/threads', org.headers);
    const seen = await record(() => t.http.get('/management/v1/threads?user_id=u1', org.headers), 200);
    expect(seen.sql).toEqual([expect.stringMatching(/^SELECT /)]);
    expect(seen.redis).toEqual([RATE_LIMIT_WINDOW]);
  });
});
