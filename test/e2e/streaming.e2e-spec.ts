import { request as httpRequest } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import { Redis } from 'ioredis';
import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import type { TestOrg } from '../factories/factory.js';
import { helpBundle, liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { startFakeOpenAI, type FakeServer } from '../support/fake-openai-server.js';
import { openSse, type SseEvent } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
import { TURNS_WITH_MESSAGES } from '../support/threads.js';

const STREAM = '/messaging/v1/messages/stream';
const ID = /^[0-9a-f]{24}$/;

const withOpenAI = (bundle: Bundle): Bundle => ({
  ...bundle,
  model: { provider: 'openai', name: 'gpt-4o-mini', temperature: 0, max_output_tokens: 300 },
});

/** The event names of a stream, with runs of deltas and cards folded: thread,delta*,card*,message,suggestions,done. */
function shape(events: SseEvent[]): string {
  return events
    .map((e) => e.event)
    .join(',')
    .replace(/(delta,)+/g, 'delta*,')
    .replace(/(card,)+/g, 'card*,');
}

const seqOf = (e: SseEvent) => Number(e.id!.split(':')[1]);

async function interactionCount(t: TestApp): Promise<number> {
  const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM interactions`);
  return n;
}

/** One raw HTTP/1.1 exchange, for requests fetch refuses to send (a NUL in a header); the answer's head and body. */
function rawExchange(baseUrl: string, head: string[], body: string): Promise<{ status: number; headers: string; body: string }> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(Number(port), '127.0.0.1', () =>
      socket.write(`${[...head, `content-length: ${Buffer.byteLength(body)}`, 'connection: close'].join('\r\n')}\r\n\r\n${body}`, 'latin1'),
    );
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [headers = '', rest = ''] = answer.split('\r\n\r\n', 2);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0), headers: headers.toLowerCase(), body: rest });
    });
  });
}

describe('POST /messaging/v1/messages/stream (SSE)', () => {
  let fake: FakeServer;
  let t: TestApp;
  /** A second instance sharing PostgreSQL and Redis (same worker prefix), with a short ping interval. */
  let t2: TestApp;
  /** A third instance with a small bound for slow readers. */
  let t3: TestApp;
  let org: TestOrg;
  let shop: LiveTestAgent;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    const env = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', PROVIDER_TIMEOUT_MS: '5000' };
    t = await createTestApp(env);
    t2 = await createTestApp({ ...env, STREAM_PING_INTERVAL_MS: '40' });
    t3 = await createTestApp({ ...env, STREAM_MAX_BUFFERED_BYTES: '65536' });
  });
  beforeEach(async () => {
    await t.reset();
    fake.behave({});
    org = await t.factory.org();
    shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
  });
  afterAll(async () => {
    await t3.close();
    await t2.close();
    await t.close();
    await fake.close();
  });

  it('streams thread → delta… → card… → message → suggestions → done, ids <interaction_id>:<seq>', async () => {
    const stream = await openSse(t.baseUrl, STREAM, {
      headers: { ...shop.headers, 'x-request-id': 'sse-order-1' },
      body: { text: 'I am looking for trail shoes', user_id: 'u1' },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    expect(stream.headers.get('x-request-id')).toBe('sse-order-1');
    const events = await stream.collect();
    expect(shape(events)).toBe('thread,delta*,card*,message,suggestions,done');

    const [thread] = events;
    const { thread_id, interaction_id } = thread!.data;
    expect(thread_id).toMatch(ID);
    expect(interaction_id).toMatch(ID);
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => `${interaction_id}:${i + 1}`));

    const message = events.find((e) => e.event === 'message')!.data;
    expect(message).toMatchObject({
      thread_id,
      interaction_id,
      message: { text: expect.any(String), sender: { id: shop.agentId, type: 'agent' } },
    });
    const deltas = events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => e.data.text).join('')).toBe(message.message.text);
    const cards = events.filter((e) => e.event === 'card').map((e) => e.data.card);
    expect(cards.length).toBeGreaterThan(0);
    expect(cards).toEqual(message.message.cards);
    const suggestions = events.find((e) => e.event === 'suggestions')!.data;
    expect(suggestions).toEqual({ thread_id, interaction_id, followup_suggestions: message.message.followup_suggestions });
    expect(suggestions.followup_suggestions).toEqual(['Any in size 42?', 'Show cheaper options']);
    expect(events.at(-1)!.data).toEqual({});

    const rows = await t.dataSource.query(`SELECT id, thread_id, reply_text FROM ${TURNS_WITH_MESSAGES}`);
    expect(rows).toEqual([{ id: interaction_id, thread_id, reply_text: message.message.text }]);
  });

  it('streams a v2 agent with deltas, a trace on request, and appends to an existing thread', async () => {
    const help = await liveAgent(t, org, { bundle: helpBundle, runtime: 'v2' });
    const first = await (
      await openSse(t.baseUrl, STREAM, {
        headers: help.headers,
        body: { text: 'How many days do I have to return an item?', user_id: 'u1', include_trace: true },
      })
    ).collect();
    expect(shape(first)).toBe('thread,delta*,message,suggestions,done');
    const message = first.find((e) => e.event === 'message')!.data.message;
    expect(
      first
        .filter((e) => e.event === 'delta')
        .map((e) => e.data.text)
        .join(''),
    ).toBe(message.text);
    expect(message.text).toMatch(/30 days/);
    expect(message.trace_info.runtime).toBe('v2');
    const threadId = first[0]!.data.thread_id;
    const second = await (
      await openSse(t.baseUrl, STREAM, {
        headers: help.headers,
        body: { text: 'How long does shipping take?', user_id: 'u1', thread_id: threadId },
      })
    ).collect();
    expect(second[0]!.data.thread_id).toBe(threadId);
    expect(second.at(-1)!.event).toBe('done');
    expect(await interactionCount(t)).toBe(2);
  });

  it('streams the provider’s own deltas (openai) and keeps browser CORS headers on the stream', async () => {
    const agent = await liveAgent(t, org, { bundle: withOpenAI(shopBundle), runtime: 'v1' });
    const stream = await openSse(t.baseUrl, STREAM, {
      headers: { ...agent.headers, origin: 'https://shop.example' },
      body: { text: 'I am looking for trail shoes', user_id: 'u1' },
    });
    expect(stream.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(stream.headers.get('access-control-expose-headers')).toContain('x-request-id');
    const events = await stream.collect();
    const message = events.find((e) => e.event === 'message')!.data.message;
    const deltas = events.filter((e) => e.event === 'delta').map((e) => e.data.text);
    expect(deltas.join('')).toBe(message.text);
    expect(message.text).toContain('Ridge Runner');
    expect(fake.requests.at(-1)!.body.stream).toBe(true);
  });

  describe('errors before the first event are JSON error responses', () => {
    it('401 without or with a bad credential', async () => {
      const none = await openSse(t.baseUrl, STREAM, { body: { text: 'hi', user_id: 'u1' } });
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('unauthorized');
      expect(none.headers.get('content-type')).toContain('application/json');
      const bad = await openSse(t.baseUrl, STREAM, { headers: { authorization: 'Bearer nope' }, body: { text: 'hi', user_id: 'u1' } });
      expect(bad.status).toBe(401);
      expect(bad.body.error.request_id).toBe(bad.headers.get('x-request-id'));
      const orgKey = await openSse(t.baseUrl, STREAM, { headers: org.headers, body: { text: 'hi', user_id: 'u1' } });
      expect(orgKey.status).toBe(401);
    });

    it('422 with details[].field for an invalid body, creating nothing', async () => {
      const cases: Array<[unknown, string]> = [
        [{ text: 'hi' }, 'user_id'],
        [{ text: 'hi', user_id: 'u1', agent_id: shop.agentId }, 'agent_id'],
        [{ text: 'hi', user_id: 'u1', thread_id: 'nope' }, 'thread_id'],
        [{ text: 'hi', user_id: 'u1', include_trace: 'yes' }, 'include_trace'],
        [undefined, 'user_id'],
      ];
      for (const [body, field] of cases) {
        const res = await openSse(t.baseUrl, STREAM, { headers: shop.headers, body });
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe('validation_error');
        expect(res.body.error.details.map((d: any) => d.field)).toContain(field);
      }
      expect(await interactionCount(t)).toBe(0);
    });

    it("404 for an unknown thread, another agent's thread, and an agent without a live version", async () => {
      const other = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      const theirs = await t.http.post('/messaging/v1/messages', { text: 'show me jackets', user_id: 'u1' }, other.headers);
      for (const thread_id of ['0123456789abcdef01234567', theirs.body.thread_id]) {
        const res = await openSse(t.baseUrl, STREAM, { headers: shop.headers, body: { text: 'hi', user_id: 'u1', thread_id } });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
      const project = (await t.http.post('/management/v1/projects', { name: 'Unpublished' }, org.headers)).body;
      const agent = (await t.http.post(`/management/v1/projects/${project.id}/agents`, { name: 'No version' }, org.headers)).body;
      const key = (await t.http.post(`/management/v1/agents/${agent.id}/publishable-keys`, {}, org.headers)).body;
      const token = (
        await t.http.post('/management/v1/auth/token', { grant_type: 'publishable_key', publishable_key: key.publishable_key })
      ).body.access_token;
      const res = await openSse(t.baseUrl, STREAM, { headers: { authorization: `Bearer ${token}` }, body: { text: 'hi', user_id: 'u1' } });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('no_active_version');
    });
  });

  it('ends with an error event carrying the envelope when the turn fails after the stream began', async () => {
    const agent = await liveAgent(t, org, { bundle: withOpenAI(shopBundle), runtime: 'v1' });
    fake.behave({ failStatus: 503 });
    const stream = await openSse(t.baseUrl, STREAM, {
      headers: { ...agent.headers, 'x-request-id': 'sse-fail-1' },
      body: { text: 'I am looking for trail shoes', user_id: 'u1' },
    });
    expect(stream.status).toBe(200);
    const events = await stream.collect();
    expect(events.map((e) => e.event)).toEqual(['thread', 'error']);
    const interactionId = events[0]!.data.interaction_id;
    expect(events[1]!.id).toBe(`${interactionId}:2`);
    expect(events[1]!.data).toEqual({ error: { code: 'upstream_unavailable', message: expect.any(String), request_id: 'sse-fail-1' } });
    expect(await interactionCount(t)).toBe(0);
    // The error is part of the buffer too: a resume replays it.
    const resumed = await (await openSse(t.baseUrl, STREAM, { headers: agent.headers, lastEventId: `${interactionId}:1` })).collect();
    expect(resumed.map((e) => e.event)).toEqual(['error']);
  });

  describe('resume with Last-Event-ID', () => {
    it('replays exactly the events after the id, at every point of a finished stream, without a new turn', async () => {
      const full = await (
        await openSse(t.baseUrl, STREAM, { headers: shop.headers, body: { text: 'I am looking for trail shoes', user_id: 'u1' } })
      ).collect();
      const interactionId = full[0]!.data.interaction_id;
      const points = [...new Set([1, 2, 3, Math.floor(full.length / 2), full.length - 2, full.length - 1])];
      for (const k of points) {
        // The body is ignored on resume (even an invalid one).
        const resumed = await openSse(t.baseUrl, STREAM, { headers: shop.headers, lastEventId: full[k - 1]!.id, body: { nonsense: true } });
        expect(resumed.status).toBe(200);
        expect(await resumed.collect()).toEqual(full.slice(k));
      }
      const fromStart = await (await openSse(t.baseUrl, STREAM, { headers: shop.headers, lastEventId: `${interactionId}:0` })).collect();
      expect(fromStart).toEqual(full);
      const atEnd = await openSse(t.baseUrl, STREAM, { headers: shop.headers, lastEventId: full.at(-1)!.id });
      expect(atEnd.status).toBe(200);
      expect(await atEnd.collect()).toEqual([]);
      expect(await interactionCount(t)).toBe(1);
    });

    it('resumes a dropped stream mid-turn: missed events, then the live tail; no duplicate, no gap, one interaction', async () => {
      const agent = await liveAgent(t, org, { bundle: withOpenAI(shopBundle), runtime: 'v1' });
      fake.behave({ chunkDelayMs: 25 });
      for (const dropAfter of [1, 4]) {
        const first = await openSse(t.baseUrl, STREAM, {
          headers: agent.headers,
          body: { text: 'I am looking for trail shoes', user_id: `u-${dropAfter}` },
        });
        const before = await first.collect((_, all) => all.length === dropAfter);
        first.abort();
        const resumed = await openSse(t.baseUrl, STREAM, { headers: agent.headers, lastEventId: before.at(-1)!.id });
        expect(resumed.status).toBe(200);
        const after = await resumed.collect();
        const all = [...before, ...after];
        expect(all.map(seqOf)).toEqual(all.map((_, i) => i + 1));
        expect(shape(all)).toBe('thread,delta*,card*,message,suggestions,done');
        const message = all.find((e) => e.event === 'message')!.data.message;
        expect(
          all
            .filter((e) => e.event === 'delta')
            .map((e) => e.data.text)
            .join(''),
        ).toBe(message.text);
      }
      expect(await interactionCount(t)).toBe(2);
    });

    it('does not cancel the turn when the client goes away: it completes, is saved, and can be resumed', async () => {
      const agent = await liveAgent(t, org, { bundle: withOpenAI(shopBundle), runtime: 'v1' });
      fake.behave({ chunkDelayMs: 20 });
      const stream = await openSse(t.baseUrl, STREAM, {
        headers: agent.headers,
        body: { text: 'I am looking for trail shoes', user_id: 'u1' },
      });
      const [thread] = await stream.collect((_, all) => all.length === 1);
      stream.abort();
      const row = await waitFor(
        async () => (await t.dataSource.query(`SELECT id, reply_text FROM ${TURNS_WITH_MESSAGES}`))[0],
        'the saved turn',
      );
      expect(row.id).toBe(thread!.data.interaction_id);
      const rest = await (await openSse(t.baseUrl, STREAM, { headers: agent.headers, lastEventId: thread!.id })).collect();
      expect(rest.find((e) => e.event === 'message')!.data.message.text).toBe(row.reply_text);
      expect(rest.at(-1)!.event).toBe('done');
    });

    it('resumes on a second instance sharing Redis: finished and live streams', async () => {
      const agent = await liveAgent(t, org, { bundle: withOpenAI(shopBundle), runtime: 'v1' });
      const done = await (
        await openSse(t.baseUrl, STREAM, { headers: agent.headers, body: { text: 'show me jackets', user_id: 'u1' } })
      ).collect();
      const replayed = await (await openSse(t2.baseUrl, STREAM, { headers: agent.headers, lastEventId: done[1]!.id })).collect();
      expect(replayed).toEqual(done.slice(2));

      fake.behave({ chunkDelayMs: 25 });
      const live = await openSse(t.baseUrl, STREAM, {
        headers: agent.headers,
        body: { text: 'I am looking for trail shoes', user_id: 'u2' },
      });
      const before = await live.collect((_, all) => all.length === 3);
      live.abort();
      const elsewhere = await openSse(t2.baseUrl, STREAM, { headers: agent.headers, lastEventId: before.at(-1)!.id });
      const after = await elsewhere.collect();
      const all = [...before, ...after];
      expect(all.map(seqOf)).toEqual(all.map((_, i) => i + 1));
      expect(all.at(-1)!.event).toBe('done');
      // The slow turn gave the second instance time to ping while it tailed.
      expect(elsewhere.comments).toContain('ping');
      expect(await interactionCount(t)).toBe(2);
    });

    it("answers 404 not_found for unknown, malformed, expired and another agent's ids, before streaming", async () => {
      const full = await (
        await openSse(t.baseUrl, STREAM, { headers: shop.headers, body: { text: 'show me jackets', user_id: 'u1' } })
      ).collect();
      const interactionId = full[0]!.data.interaction_id;
      const other = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      const otherOrg = await t.factory.org();
      const stranger = await liveAgent(t, otherOrg, { bundle: shopBundle, runtime: 'v1' });
      const cases: Array<[Record<string, string>, string]> = [
        [shop.headers, '0123456789abcdef01234567:3'],
        [shop.headers, 'not-an-id'],
        [shop.headers, `${interactionId}:${full.length + 5}`],
        [other.headers, `${interactionId}:1`],
        [stranger.headers, `${interactionId}:1`],
      ];
      for (const [headers, lastEventId] of cases) {
        const res = await openSse(t.baseUrl, STREAM, { headers, lastEventId });
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
      const unauthenticated = await openSse(t.baseUrl, STREAM, { lastEventId: `${interactionId}:1` });
      expect(unauthenticated.status).toBe(401);
      // Expired: the buffer's keys are gone.
      const redis = new Redis(t.config.redis.url);
      await redis.del(`${t.config.redis.keyPrefix}:replay:${interactionId}`, `${t.config.redis.keyPrefix}:replay:${interactionId}:owner`);
      redis.disconnect();
      expect((await openSse(t.baseUrl, STREAM, { headers: shop.headers, lastEventId: `${interactionId}:1` })).status).toBe(404);
      expect(await interactionCount(t)).toBe(1);
    });

    it('answers hostile Last-Event-IDs with 404 in the envelope; nothing is started', async () => {
      const full = await (
        await openSse(t.baseUrl, STREAM, { headers: shop.headers, body: { text: 'show me jackets', user_id: 'u1' } })
      ).collect();
      const interactionId = full[0]!.data.interaction_id;
      const hostile = [
        'x'.repeat(5000),
        `${interactionId}:${'9'.repeat(5000)}`,
        `${interactionId}:1${' '.repeat(3000)}x`,
        `${interactionId}:-1`,
        `${interactionId}:1.5`,
        '%00',
        '\u00ff'.repeat(2000),
        ':',
      ];
      for (const [i, lastEventId] of hostile.entries()) {
        const res = await openSse(t.baseUrl, STREAM, {
          headers: { ...shop.headers, 'x-request-id': `hostile-${i}` },
          lastEventId,
          body: { text: 'hi', user_id: 'u1' },
        });
        expect([i, res.status]).toEqual([i, 404]);
        expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String), request_id: `hostile-${i}` } });
      }
      expect(await interactionCount(t)).toBe(1);
    });

    // Node's HTTP parser refuses the NUL before any route runs; the answer needs the envelope all the same (issue 13 #9).
    it('answers a Last-Event-ID with a NUL with a 4xx in the envelope', async () => {
      const res = await rawExchange(
        t.baseUrl,
        [
          `POST ${STREAM} HTTP/1.1`,
          'host: localhost',
          `authorization: Bearer ${shop.token}`,
          'content-type: application/json',
          'last-event-id: 0123456789abcdef01234567:1\u0000',
        ],
        '{}',
      );
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(JSON.parse(res.body)).toEqual({
        error: expect.objectContaining({ code: expect.any(String), request_id: expect.any(String) }),
      });
      expect(await interactionCount(t)).toBe(0);
    });

    it('follows one live stream with at most 4 resumes at once (each holds a Redis connection); more get 429', async () => {
      const agent = await liveAgent(t, org, { bundle: withOpenAI(shopBundle), runtime: 'v1' });
      fake.behave({ hangAfterFirstChunk: true });
      const live = await openSse(t.baseUrl, STREAM, {
        headers: agent.headers,
        body: { text: 'I am looking for trail shoes', user_id: 'u1' },
      });
      const [thread] = await live.collect((_, all) => all.length === 1);
      const resumes = [];
      for (let i = 0; i < 4; i += 1) {
        const resumed = await openSse(t.baseUrl, STREAM, { headers: agent.headers, lastEventId: thread!.id });
        expect(resumed.status).toBe(200);
        resumes.push(resumed);
      }
      const refused = await openSse(t.baseUrl, STREAM, {
        headers: { ...agent.headers, 'x-request-id': 'too-many-resumes' },
        lastEventId: thread!.id,
      });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: { code: 'rate_limited', message: expect.any(String), request_id: 'too-many-resumes' } });
      // A resume that ends frees its place.
      resumes.shift()!.abort();
      const again = await waitFor(async () => {
        const res = await openSse(t.baseUrl, STREAM, { headers: agent.headers, lastEventId: thread!.id });
        if (res.status === 200) return res;
        expect(res.status).toBe(429);
        return undefined;
      }, 'a resume slot');
      for (const r of [...resumes, again, live]) r.abort();
    });

    it('keeps replay buffers for at least 10 minutes', async () => {
      const full = await (
        await openSse(t.baseUrl, STREAM, { headers: shop.headers, body: { text: 'show me jackets', user_id: 'u1' } })
      ).collect();
      const interactionId = full[0]!.data.interaction_id;
      const redis = new Redis(t.config.redis.url);
      const ttls = [
        await redis.ttl(`${t.config.redis.keyPrefix}:replay:${interactionId}`),
        await redis.ttl(`${t.config.redis.keyPrefix}:replay:${interactionId}:owner`),
      ];
      redis.disconnect();
      for (const ttl of ttls) expect(ttl).toBeGreaterThanOrEqual(599);
    });
  });

  it('cuts off a client that stops reading once its unsent data passes the bound; it can resume', async () => {
    try {
      const agent = await liveAgent(t3, org, { bundle: withOpenAI(shopBundle), runtime: 'v1' });
      // A long reply in big pieces: far more than the socket buffers hold while the client does not read.
      const word = 'x'.repeat(16 * 1024);
      fake.behave({ reply: () => Array.from({ length: 800 }, () => word).join(' ') });
      const { status, cut, firstId } = await new Promise<{ status: number; cut: boolean; firstId: string }>((resolve, reject) => {
        const req = httpRequest(
          `${t3.baseUrl}${STREAM}`,
          { method: 'POST', headers: { ...agent.headers, 'content-type': 'application/json' } },
          (res) => {
            let firstChunk = '';
            res.once('data', (chunk: Buffer) => {
              firstChunk = chunk.toString('utf8');
              res.pause(); // stop reading: the server's queue grows until it cuts us off
            });
            res.on('error', () => undefined);
            res.on('aborted', () => resolve({ status: res.statusCode!, cut: true, firstId: /id: (\S+)/.exec(firstChunk)?.[1] ?? '' }));
            res.on('close', () =>
              resolve({ status: res.statusCode!, cut: !res.complete, firstId: /id: (\S+)/.exec(firstChunk)?.[1] ?? '' }),
            );
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ text: 'I am looking for trail shoes', user_id: 'u1' }));
      });
      expect(status).toBe(200);
      expect(cut).toBe(true);
      expect(firstId).toMatch(/^[0-9a-f]{24}:1$/);
      // The turn still completes and is saved; the client resumes from the buffer.
      await waitFor(async () => (await t3.dataSource.query(`SELECT id FROM interactions`))[0], 'the saved turn');
      const resumed = await openSse(t3.baseUrl, STREAM, { headers: agent.headers, lastEventId: firstId });
      expect([resumed.status, resumed.body]).toEqual([200, undefined]);
      const rest = await resumed.collect();
      expect(rest.at(-1)?.event).toBe('done');
      expect(rest.map(seqOf)).toEqual(rest.map((_, i) => i + 2));
    } finally {
      fake.behave({});
    }
  });
});
