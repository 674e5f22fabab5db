import { decodeJwt, SignJWT } from 'jose';
import WebSocket from 'ws';
import type { TestOrg } from '../factories/factory.js';
import { helpBundle, liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { connect, type Client } from '../support/ws-client.js';
import { TURNS_WITH_MESSAGES } from '../support/threads.js';

const SESSION = '/messaging/v1/session';

const shape = (frames: any[]) =>
  frames
    .map((f) => f.type)
    .join(',')
    .replace(/(delta,)+/g, 'delta*,')
    .replace(/(card,)+/g, 'card*,');

async function interactionCount(t: TestApp): Promise<number> {
  const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM interactions`);
  return n;
}

describe('GET /messaging/v1/session (WebSocket)', () => {
  let t: TestApp;
  /** Instances sharing PostgreSQL and Redis with `t`, with other settings (created once: see afterAll). */
  let limited: TestApp;
  let prefixed: TestApp;
  let org: TestOrg;
  let shop: LiveTestAgent;
  let wsUrl: string;
  const open: Client[] = [];
  const client = (url: string, options?: Parameters<typeof connect>[1]) => {
    const c = connect(url, options);
    open.push(c);
    return c;
  };

  /** The agent's client token re-signed with another expiry (seconds since the epoch). */
  async function tokenExpiringAt(token: string, exp: number): Promise<string> {
    const { typ, org: o, agt, kid } = decodeJwt(token) as Record<string, unknown>;
    return new SignJWT({ typ, org: o, agt, kid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('agent-service')
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(t.config.auth.jwtSecret));
  }

  beforeAll(async () => {
    t = await createTestApp();
    limited = await createTestApp({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '3600' });
    prefixed = await createTestApp({ BASE_PATH: '/api' });
    wsUrl = `${t.baseUrl.replace(/^http/, 'ws')}${SESSION}`;
  });
  beforeEach(async () => {
    await t.reset();
    org = await t.factory.org();
    shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
  });
  afterEach(() => {
    for (const c of open.splice(0)) c.socket.terminate();
  });
  afterAll(async () => {
    await prefixed.close();
    await limited.close();
    await t.close();
  });

  describe('authentication on the upgrade', () => {
    it('accepts the Authorization header and streams a turn: thread → delta… → card… → message → suggestions → done', async () => {
      const c = client(wsUrl, { headers: shop.headers });
      const ready = await c.next((f) => f.type === 'ready');
      expect(ready.session_id).toMatch(/^[0-9a-f]{24}$/);
      c.send({ type: 'message', id: 'r1', text: 'I am looking for trail shoes', user_id: 'u1' });
      const frames = await c.request('r1');
      expect(shape(frames)).toBe('thread,delta*,card*,message,suggestions,done');
      const [thread] = frames;
      expect(thread).toEqual({
        type: 'thread',
        id: 'r1',
        thread_id: expect.stringMatching(/^[0-9a-f]{24}$/),
        interaction_id: expect.stringMatching(/^[0-9a-f]{24}$/),
      });
      const message = frames.find((f) => f.type === 'message');
      expect(message).toMatchObject({
        id: 'r1',
        thread_id: thread.thread_id,
        interaction_id: thread.interaction_id,
        message: { sender: { id: shop.agentId } },
      });
      expect(
        frames
          .filter((f) => f.type === 'delta')
          .map((f) => f.text)
          .join(''),
      ).toBe(message.message.text);
      expect(frames.filter((f) => f.type === 'card').map((f) => f.card)).toEqual(message.message.cards);
      expect(frames.find((f) => f.type === 'suggestions')).toEqual({
        type: 'suggestions',
        id: 'r1',
        thread_id: thread.thread_id,
        interaction_id: thread.interaction_id,
        followup_suggestions: ['Any in size 42?', 'Show cheaper options'],
      });
      expect(frames.at(-1)).toEqual({ type: 'done', id: 'r1' });
      const rows = await t.dataSource.query(`SELECT id, thread_id FROM interactions`);
      expect(rows).toEqual([{ id: thread.interaction_id, thread_id: thread.thread_id }]);
    });

    it('accepts ?access_token= and the bearer subprotocol (selecting "bearer")', async () => {
      const byQuery = client(`${wsUrl}?access_token=${encodeURIComponent(shop.token)}`);
      await byQuery.next((f) => f.type === 'ready');
      const byProtocol = client(wsUrl, { protocols: ['bearer', shop.token] });
      await byProtocol.next((f) => f.type === 'ready');
      expect(byProtocol.socket.protocol).toBe('bearer');
      byProtocol.send({ type: 'message', id: 'p1', text: 'show me jackets', user_id: 'u1' });
      expect((await byProtocol.request('p1')).at(-1).type).toBe('done');
    });

    it('closes with 1008 for missing, invalid, expired and non-messaging credentials', async () => {
      const expired = await tokenExpiringAt(shop.token, Math.floor(Date.now() / 1000) - 5);
      const cases: Array<[string, Parameters<typeof connect>[1]]> = [
        [wsUrl, {}],
        [wsUrl, { headers: { authorization: 'Bearer not-a-token' } }],
        [`${wsUrl}?access_token=not-a-token`, {}],
        [wsUrl, { protocols: ['bearer', 'not-a-token'] }],
        [wsUrl, { headers: { authorization: `Bearer ${expired}` } }],
        [wsUrl, { headers: org.headers }],
      ];
      for (const [url, options] of cases) {
        const c = client(url, options);
        const { code } = await c.closed;
        expect(code).toBe(1008);
        expect(c.frames.filter((f) => f.type === 'ready')).toEqual([]);
      }
    });

    it('closes with 1008 when the token expires during the session', async () => {
      const shortLived = await tokenExpiringAt(shop.token, Math.floor(Date.now() / 1000) + 2);
      const c = client(wsUrl, { headers: { authorization: `Bearer ${shortLived}` } });
      await c.next((f) => f.type === 'ready');
      const { code, reason } = await c.closed;
      expect(code).toBe(1008);
      expect(reason).toContain('expired');
    });
  });

  it('answers bad frames with an error frame and keeps the session open', async () => {
    const c = client(wsUrl, { headers: shop.headers });
    await c.next((f) => f.type === 'ready');
    c.send('{not json');
    const invalidJson = await c.next((f) => f.type === 'error');
    expect(invalidJson).toEqual({
      type: 'error',
      id: null,
      error: {
        code: 'validation_error',
        message: expect.any(String),
        request_id: expect.any(String),
        details: [{ field: 'frame', message: expect.any(String) }],
      },
    });

    c.send({ type: 'shout', id: 'x1' });
    const unknownType = await c.next((f) => f.type === 'error' && f.id === 'x1');
    expect(unknownType.error.details[0].field).toBe('type');

    c.send({ type: 'message', id: 'x2', text: 'hi' });
    const invalid = await c.next((f) => f.type === 'error' && f.id === 'x2');
    expect(invalid.error.code).toBe('validation_error');
    expect(invalid.error.details.map((d: any) => d.field)).toContain('user_id');

    c.send({ type: 'message', id: 'x3', text: 'hi', user_id: 'u1', agent_id: shop.agentId });
    expect((await c.next((f) => f.type === 'error' && f.id === 'x3')).error.details[0].field).toBe('agent_id');

    c.send({ type: 'message', text: 'hi', user_id: 'u1' });
    const noId = await c.next((f) => f.type === 'error' && f.id === null && f.error.details[0]?.field === 'id');
    expect(noId.error.code).toBe('validation_error');

    c.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    await c.next((f) => f.type === 'error' && f.error.details[0]?.message.includes('text frames'));

    c.send({ type: 'message', id: 'x5', text: 'hi', user_id: 'u1', thread_id: '0123456789abcdef01234567' });
    const notFound = await c.next((f) => f.type === 'error' && f.id === 'x5');
    expect(notFound.error).toMatchObject({ code: 'not_found', details: [] });

    c.send({ type: 'ping' });
    await c.next((f) => f.type === 'pong');
    expect(c.socket.readyState).toBe(WebSocket.OPEN);
    c.send({ type: 'message', id: 'ok', text: 'show me jackets', user_id: 'u1' });
    expect((await c.request('ok')).at(-1).type).toBe('done');
    expect(await interactionCount(t)).toBe(1);
  });

  it('runs several requests at once on one session, told apart by id', async () => {
    const c = client(wsUrl, { headers: shop.headers });
    await c.next((f) => f.type === 'ready');
    const texts: Record<string, string> = {
      a: 'I am looking for trail shoes',
      b: 'show me jackets',
      c: 'find me a rain jacket',
      d: 'do you have running shoes',
    };
    for (const [id, text] of Object.entries(texts)) c.send({ type: 'message', id, text, user_id: `user-${id}` });
    c.send({ type: 'message', id: 'a', text: 'again', user_id: 'u' });
    const duplicate = await c.next((f) => f.type === 'error' && f.id === 'a');
    expect(duplicate.error.details[0].field).toBe('id');
    const results = await Promise.all(
      Object.keys(texts).map(async (id) => {
        await c.next((f) => f.id === id && f.type === 'done');
        return c.frames.filter((f) => f.id === id && f !== duplicate);
      }),
    );
    const interactionIds = new Set<string>();
    for (const frames of results) {
      expect(shape(frames)).toMatch(/^thread,delta\*,(card\*,)?message,suggestions,done$/);
      const message = frames.find((f) => f.type === 'message');
      expect(
        frames
          .filter((f) => f.type === 'delta')
          .map((f) => f.text)
          .join(''),
      ).toBe(message.message.text);
      interactionIds.add(message.interaction_id);
    }
    expect(interactionIds.size).toBe(4);
    const rows = await t.dataSource.query(`SELECT user_text FROM ${TURNS_WITH_MESSAGES} ORDER BY user_text`);
    expect(rows.map((r: any) => r.user_text)).toEqual(Object.values(texts).sort());
  });

  it('answers ping with pong', async () => {
    const c = client(wsUrl, { headers: shop.headers });
    await c.next((f) => f.type === 'ready');
    c.send({ type: 'ping' });
    expect(await c.next((f) => f.type === 'pong')).toEqual({ type: 'pong' });
  });

  it('sends no delta frames for a v2 agent, only the final message', async () => {
    const help = await liveAgent(t, org, { bundle: helpBundle, runtime: 'v2' });
    const c = client(wsUrl, { headers: help.headers });
    await c.next((f) => f.type === 'ready');
    c.send({ type: 'message', id: 'v2', text: 'How many days do I have to return an item?', user_id: 'u1', include_trace: true });
    const frames = await c.request('v2');
    expect(frames.map((f) => f.type)).toEqual(['thread', 'message', 'suggestions', 'done']);
    expect(frames[1].message.text).toMatch(/30 days/);
    expect(frames[1].message.trace_info.runtime).toBe('v2');
  });

  it("counts message frames against the credential's rate limit", async () => {
    const c = client(`${limited.baseUrl.replace(/^http/, 'ws')}${SESSION}`, { headers: shop.headers });
    await c.next((f) => f.type === 'ready');
    for (const id of ['m1', 'm2', 'm3']) {
      c.send({ type: 'message', id, text: 'show me jackets', user_id: 'u1' });
      expect((await c.request(id)).at(-1).type).toBe('done');
    }
    c.send({ type: 'message', id: 'm4', text: 'show me jackets', user_id: 'u1' });
    const rejected = await c.next((f) => f.id === 'm4');
    expect(rejected).toMatchObject({ type: 'error', error: { code: 'rate_limited' } });
    // The HTTP surface shares the bucket.
    const res = await limited.http.post('/messaging/v1/messages', { text: 'hi', user_id: 'u1' }, shop.headers);
    expect(res.status).toBe(429);
    expect(c.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('honours BASE_PATH and the legacy base path', async () => {
    const base = prefixed.baseUrl.replace(/^http/, 'ws');
    for (const path of [`/api${SESSION}`, `/api-v2${SESSION}`]) {
      const c = client(`${base}${path}`, { headers: shop.headers });
      await c.next((f) => f.type === 'ready');
      c.send({ type: 'ping' });
      await c.next((f) => f.type === 'pong');
    }
  });
});
