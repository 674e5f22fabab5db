import { request as httpRequest } from 'node:http';
import { decodeJwt } from 'jose';
import WebSocket from 'ws';
import type { TestOrg } from '../factories/factory.js';
import { liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { connect, type Client } from '../support/ws-client.js';

const SESSION = '/messaging/v1/session';

/** Limits of the instance under test (small, so the tests reach them quickly). */
const LIMITS = { SESSION_FRAME_BURST: 20, SESSION_MAX_IN_FLIGHT: 2, SESSION_MAX_PER_CREDENTIAL: 2 };

/** Resolves with the close, or with `undefined` once `ms` have passed without one (a generous bound, not a latency). */
function closedWithin(c: Client, ms: number): Promise<{ code: number; reason: string } | undefined> {
  return Promise.race([c.closed, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms))]);
}

async function interactionCount(t: TestApp): Promise<number> {
  const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM interactions`);
  return n;
}

describe('WebSocket session hardening (issue 13: revocation, hostile frames, floods)', () => {
  let t: TestApp;
  let org: TestOrg;
  let shop: LiveTestAgent;
  let wsUrl: string;
  const open: Client[] = [];
  const client = (headers: Record<string, string>) => {
    const c = connect(wsUrl, { headers });
    open.push(c);
    return c;
  };
  const ready = async (headers: Record<string, string>) => {
    const c = client(headers);
    await c.next((f) => f.type === 'ready');
    return c;
  };
  const revoke = async (agent: LiveTestAgent) => {
    const { kid } = decodeJwt(agent.token) as { kid: string };
    const res = await t.http.delete(`/management/v1/agents/${agent.agentId}/publishable-keys/${kid}`, org.headers);
    expect(res.status).toBe(204);
  };

  beforeAll(async () => {
    // No credential cache: on this branch a revocation is seen by the next check (the broadcast makes it immediate).
    t = await createTestApp({
      CREDENTIAL_CACHE_TTL_MS: '0',
      ...Object.fromEntries(Object.entries(LIMITS).map(([k, v]) => [k, String(v)])),
    });
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
    await t.close();
  });

  describe('revocation reaches open sessions', () => {
    it('closes with 1008 on the next message frame after the publishable key is revoked; no turn runs', async () => {
      const c = await ready(shop.headers);
      c.send({ type: 'message', id: 'before', text: 'show me jackets', user_id: 'u1' });
      expect((await c.request('before')).at(-1).type).toBe('done');

      await revoke(shop);
      expect((await t.http.post('/messaging/v1/messages', { text: 'hi', user_id: 'u1' }, shop.headers)).status).toBe(401);
      c.send({ type: 'message', id: 'after', text: 'show me jackets', user_id: 'u1' });
      expect((await c.closed).code).toBe(1008);
      expect(c.frames.filter((f) => f.id === 'after')).toEqual([]);
      expect(await interactionCount(t)).toBe(1);
    });

    // Needs AuthService.onCredentialsChanged to fire on revocation (the auth change of issue 13).
    it('closes an idle session with 1008 after the revocation, without a frame from it', async () => {
      const c = await ready(shop.headers);
      const other = await ready((await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' })).headers);
      await revoke(shop);
      expect((await closedWithin(c, 20_000))?.code).toBe(1008);
      // Sessions of other credentials stay open.
      other.send({ type: 'ping' });
      await other.next((f) => f.type === 'pong');
    });

    // Needs the auth change of issue 13: tokens of deleted agents are refused, and deletion fires onCredentialsChanged.
    it("closes a deleted agent's open session with 1008 and refuses its token on the upgrade", async () => {
      const c = await ready(shop.headers);
      expect((await t.http.delete(`/management/v1/agents/${shop.agentId}`, org.headers)).status).toBe(204);
      expect((await closedWithin(c, 20_000))?.code).toBe(1008);
      const again = client(shop.headers);
      expect((await again.closed).code).toBe(1008);
      expect(again.frames.filter((f) => f.type === 'ready')).toEqual([]);
    });
  });

  it('answers a handshake that ws refuses (bad Sec-WebSocket-Version) in the envelope with the request id', async () => {
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: any }>((resolve, reject) => {
      const req = httpRequest(`${t.baseUrl}${SESSION}`, {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '99',
          'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          'x-request-id': 'hs-1',
          ...shop.headers,
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
      });
      req.on('upgrade', () => reject(new Error('the handshake was accepted')));
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(400);
    expect(answer.headers['x-request-id']).toBe('hs-1');
    expect(answer.body).toEqual({ error: { code: 'bad_request', message: expect.any(String), request_id: 'hs-1' } });
  });

  describe('hostile frames are rejected cheaply', () => {
    it('closes with 1009 on a frame over SESSION_MAX_FRAME_BYTES; a frame at the limit is read', async () => {
      const c = await ready(shop.headers);
      const atLimit = JSON.stringify({ type: 'ping', pad: '' });
      c.send(atLimit.replace('""', `"${'x'.repeat(t.config.session.maxFrameBytes - atLimit.length)}"`));
      await c.next((f) => f.type === 'pong');
      c.send({ type: 'message', id: 'big', text: 'x'.repeat(t.config.session.maxFrameBytes), user_id: 'u1' });
      expect((await c.closed).code).toBe(1009);
      expect(await interactionCount(t)).toBe(0);
    });

    it('reads the longest valid message (16,384 four-byte characters) within the default frame limit', async () => {
      const c = await ready(shop.headers);
      c.send({ type: 'message', id: 'longest', text: '\u{1F600}'.repeat(16_384), user_id: 'u1' });
      expect((await c.request('longest')).map((f) => f.type)).toContain('done');
    });

    it('answers a 10,000-level nested frame with an error frame naming `frame`; the session and the server stay up', async () => {
      const c = await ready(shop.headers);
      const nested = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
      c.send(`{"type":"message","id":"deep","text":"hi","user_id":"u1","agent_variables":{"a":${nested}}}`);
      const error = await c.next((f) => f.type === 'error');
      expect(error.error).toMatchObject({
        code: 'validation_error',
        details: [{ field: 'frame', message: expect.stringContaining('nesting') }],
      });
      expect((await t.http.get('/health')).status).toBe(200);
      c.send({ type: 'ping' });
      await c.next((f) => f.type === 'pong');
      expect(await interactionCount(t)).toBe(0);
    });

    it('answers NUL and lone surrogates with an error frame naming the field; the session stays open', async () => {
      const c = await ready(shop.headers);
      c.send({ type: 'message', id: 'nul', text: 'a\u0000b', user_id: 'u1' });
      const nul = await c.next((f) => f.type === 'error' && f.id === 'nul');
      expect(nul.error).toMatchObject({ code: 'validation_error', details: [{ field: 'text', message: expect.stringContaining('NUL') }] });
      c.send(`{"type":"message","id":"lone","text":"hi","user_id":"a\\ud800b"}`);
      const lone = await c.next((f) => f.type === 'error' && f.id === 'lone');
      expect(lone.error).toMatchObject({
        code: 'validation_error',
        details: [{ field: 'user_id', message: expect.stringContaining('surrogate') }],
      });
      c.send({ type: 'message', id: 'key', text: 'hi', user_id: 'u1', 'bad\u0000key': 1 });
      const key = await c.next((f) => f.type === 'error' && f.id === 'key');
      expect(key.error).toMatchObject({ code: 'validation_error', details: [{ field: 'frame' }] });
      c.send({ type: 'message', id: 'ok', text: 'show me jackets', user_id: 'u1' });
      expect((await c.request('ok')).at(-1).type).toBe('done');
      expect(await interactionCount(t)).toBe(1);
    });
  });

  describe('floods', () => {
    it('limits, then closes (1008) a session flooding 2,000 frames; another client is still served', async () => {
      const c = await ready(shop.headers);
      const frames = Array.from({ length: 2000 }, (_, i) =>
        JSON.stringify({ type: 'message', id: `f${i}`, text: 'show me jackets', user_id: 'u1' }),
      );
      for (const frame of frames) c.socket.send(frame);
      const health = await t.http.get('/health');
      expect(health.status).toBe(200);
      const { code } = await c.closed;
      expect(code).toBe(1008);
      expect(c.frames.some((f) => f.type === 'error' && f.error.code === 'rate_limited')).toBe(true);
      // At most a burst of frames was read at all; everything past it was refused unparsed.
      expect(new Set(c.frames.filter((f) => f.type === 'thread').map((f) => f.id)).size).toBeLessThanOrEqual(LIMITS.SESSION_FRAME_BURST);
      expect(await interactionCount(t)).toBeLessThanOrEqual(LIMITS.SESSION_FRAME_BURST);
      // The credential itself is not locked out: a new session works.
      const fresh = await ready(shop.headers);
      fresh.send({ type: 'ping' });
      await fresh.next((f) => f.type === 'pong');
    });

    it('refuses requests beyond SESSION_MAX_IN_FLIGHT running at once with rate_limited; the others complete', async () => {
      const c = await ready(shop.headers);
      const ids = ['a', 'b', 'c', 'd'];
      for (const id of ids) c.send({ type: 'message', id, text: 'I am looking for trail shoes', user_id: `u-${id}` });
      const outcomes = await Promise.all(ids.map(async (id) => (await c.request(id)).at(-1)));
      const refused = outcomes.filter((f) => f.type === 'error');
      expect(refused.length).toBeGreaterThanOrEqual(ids.length - LIMITS.SESSION_MAX_IN_FLIGHT);
      for (const f of refused) expect(f.error.code).toBe('rate_limited');
      expect(outcomes.filter((f) => f.type === 'done').length).toBe(ids.length - refused.length);
      expect(await interactionCount(t)).toBe(ids.length - refused.length);
      expect(c.socket.readyState).toBe(WebSocket.OPEN);
    });

    it('closes sessions beyond SESSION_MAX_PER_CREDENTIAL with 1013; other credentials are not affected', async () => {
      const sessions = [await ready(shop.headers), await ready(shop.headers)];
      const extra = client(shop.headers);
      expect((await extra.closed).code).toBe(1013);
      expect(extra.frames.filter((f) => f.type === 'ready')).toEqual([]);
      await ready((await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' })).headers);
      // A closed session frees its place.
      sessions[0]!.socket.close();
      await sessions[0]!.closed;
      const replacement = client(shop.headers);
      await replacement.next((f) => f.type === 'ready');
    });
  });
});
