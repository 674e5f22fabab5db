import { AsyncLocalStorage } from 'node:async_hooks';
import { request as httpRequest } from 'node:http';
import pg from 'pg';
import { liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import type { HttpResponse } from '../support/http.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { openSse } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
import type { TestOrg } from '../factories/factory.js';
import { IdempotencyCleaner } from '../../src/modules/idempotency/idempotency.cleaner.js';

/**
 * Idempotency keys (docs/idempotency.md) over real HTTP, PostgreSQL and Redis: one first request per key and
 * credential, replays of its stored response, 409 while it runs, 422 for reuse and malformed keys, and on the events
 * webhook one event id per key across two API processes.
 */
describe('Idempotency-Key', () => {
  let t: TestApp;
  let org: TestOrg;
  let shop: LiveTestAgent;
  let seq = 0;
  const newKey = () => `idem-${process.pid}-${Date.now()}-${(seq += 1)}`;
  const SEND = '/messaging/v1/messages';

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await t.reset();
    org = await t.factory.org();
    shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
  });
  afterAll(() => t?.close());

  const count = async (sql: string, params: unknown[] = []): Promise<number> =>
    Number((await t.dataSource.query<Array<{ n: string }>>(sql, params))[0]!.n);
  const interactions = () => count(`SELECT count(*) AS n FROM interactions`);
  const keyRows = () => count(`SELECT count(*) AS n FROM idempotency_keys`);

  /** Replays and 409s of concurrent repeats: every 2xx has the first's body, and only the first is not a replay. */
  function expectOneFirst(responses: HttpResponse[], success: number): HttpResponse {
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === success || s === 409)).toBe(true);
    const done = responses.filter((r) => r.status === success);
    const first = done.filter((r) => r.headers.get('idempotent-replayed') === null);
    expect(first).toHaveLength(1);
    for (const r of done) expect(r.text).toBe(first[0]!.text);
    for (const r of responses.filter((r) => r.status === 409)) {
      expect(r.body.error.code).toBe('idempotency_key_in_progress');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    return first[0]!;
  }

  it('20 concurrent sends with one key make one turn; the others are replays with the same body or 409', async () => {
    const key = newKey();
    const body = { text: 'I am looking for trail shoes', user_id: 'u1' };
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => t.http.post(SEND, body, { ...shop.headers, 'idempotency-key': key })),
    );
    const first = expectOneFirst(responses, 200);
    expect(await interactions()).toBe(1);

    // Once the first is done, a repeat is always the replay, and changes nothing.
    const again = await t.http.post(SEND, body, { ...shop.headers, 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await interactions()).toBe(1);

    // Without a key, or with another one, the same body is a new turn.
    expect((await t.http.post(SEND, body, shop.headers)).status).toBe(200);
    expect((await t.http.post(SEND, body, { ...shop.headers, 'idempotency-key': newKey() })).status).toBe(200);
    expect(await interactions()).toBe(3);
  });

  it('answers 422 idempotency_key_reused for the same key with another body (key order does not count) and changes nothing', async () => {
    const key = newKey();
    const headers = { ...shop.headers, 'idempotency-key': key };
    expect((await t.http.post(SEND, { text: 'hello', user_id: 'u1' }, headers)).status).toBe(200);
    // The same body with its fields in another order is the same request.
    const reordered = await t.http.request('POST', SEND, {
      headers: { ...headers, 'content-type': 'application/json' },
      raw: '{"user_id":"u1","text":"hello"}',
    });
    expect(reordered.status).toBe(200);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');

    const reused = await t.http.post(SEND, { text: 'something else', user_id: 'u1' }, headers);
    expect(reused.status).toBe(422);
    expect(reused.body.error).toMatchObject({ code: 'idempotency_key_reused', details: [{ field: 'Idempotency-Key' }] });
    expect(reused.body.error.request_id).toBe(reused.headers.get('x-request-id'));
    // Another route is another scope: the key is free there.
    const project = await t.http.post('/management/v1/projects', { name: 'Idem' }, { ...org.headers, 'idempotency-key': key });
    expect(project.status).toBe(201);
    expect(await interactions()).toBe(1);
  });

  it('refuses malformed keys with 422 validation_error naming Idempotency-Key, before anything runs', async () => {
    const send = (key: string) => t.http.post(SEND, { text: 'hello', user_id: 'u1' }, { ...shop.headers, 'idempotency-key': key });
    for (const key of ['k'.repeat(256), '', '   ', '"unterminated', '"a"b', 'tab\tinside']) {
      const res = await send(key);
      expect({ key, status: res.status, code: res.body?.error?.code, field: res.body?.error?.details?.[0]?.field }).toEqual({
        key,
        status: 422,
        code: 'validation_error',
        field: 'Idempotency-Key',
      });
    }
    // 255 characters is the most a key may have; the quoted Structured Field form is the same key as the bare one.
    expect((await send('k'.repeat(255))).status).toBe(200);
    expect((await send('"quoted-key"')).status).toBe(200);
    const bare = await send('quoted-key');
    expect(bare.headers.get('idempotent-replayed')).toBe('true');
    expect(await interactions()).toBe(2);

    // Bytes beyond ASCII, and the header sent twice, are refused too (sent raw: fetch would normalise them).
    const raw = (headers: Array<[string, string]>) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const url = new URL(SEND, t.baseUrl);
        const req = httpRequest(url, { method: 'POST' }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.setHeader('content-type', 'application/json');
        req.setHeader('authorization', shop.headers.authorization!);
        for (const [name, value] of headers) req.appendHeader(name, value);
        req.end(JSON.stringify({ text: 'hello', user_id: 'u1' }));
      });
    for (const headers of [
      [['idempotency-key', 'caf\u00e9']],
      [
        ['idempotency-key', 'a'],
        ['idempotency-key', 'b'],
      ],
    ] as Array<Array<[string, string]>>) {
      const res = await raw(headers);
      expect({ status: res.status, code: res.body.error.code, field: res.body.error.details[0].field }).toEqual({
        status: 422,
        code: 'validation_error',
        field: 'Idempotency-Key',
      });
    }
    expect(await interactions()).toBe(2);
  });

  it('is 401 without credentials whatever the key, and stores nothing', async () => {
    const res = await t.http.post(SEND, { text: 'hello', user_id: 'u1' }, { 'idempotency-key': newKey() });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
    const bad = await t.http.post(
      '/management/v1/projects',
      { name: 'x' },
      { 'x-organization-api-key': 'oak_nope', 'idempotency-key': 'k' },
    );
    expect(bad.status).toBe(401);
    expect(await keyRows()).toBe(0);
  });

  it('replays create-key with the same response (the secret included), creates one key, and stores it encrypted', async () => {
    const key = newKey();
    const path = `/management/v1/agents/${shop.agentId}/api-keys`;
    const before = (await t.http.get(path, org.headers)).body.results.length;
    const first = await t.http.post(path, {}, { ...org.headers, 'idempotency-key': key });
    expect(first.status).toBe(201);
    const again = await t.http.post(path, {}, { ...org.headers, 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect((await t.http.get(path, org.headers)).body.results).toHaveLength(before + 1);
    // The replay ran nothing: one audit record of the creation.
    expect(await count(`SELECT count(*) AS n FROM audit_events WHERE resource_id = $1`, [first.body.id])).toBe(1);

    const stored = await t.dataSource.query<Array<{ body: Buffer }>>(`SELECT response_body AS body FROM idempotency_keys`);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.body.includes(Buffer.from(first.body.api_key as string))).toBe(false);
    expect(stored[0]!.body.includes(Buffer.from(first.body.id as string))).toBe(false);
  });

  it("scopes keys to the credential: another organization's same key is independent", async () => {
    const other = await t.factory.org();
    const key = newKey();
    const mine = await t.http.post('/management/v1/projects', { name: 'Same' }, { ...org.headers, 'idempotency-key': key });
    const theirs = await t.http.post('/management/v1/projects', { name: 'Same' }, { ...other.headers, 'idempotency-key': key });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
    const replay = await t.http.post('/management/v1/projects', { name: 'Same' }, { ...other.headers, 'idempotency-key': key });
    expect(replay.body.id).toBe(theirs.body.id);
    expect(await count(`SELECT count(*) AS n FROM projects WHERE name = 'Same'`)).toBe(2);
  });

  it('keeps no failure: a failed first attempt frees the key for the next request', async () => {
    const key = newKey();
    const headers = { ...shop.headers, 'idempotency-key': key };
    const missing = await t.http.post(SEND, { text: 'hello', user_id: 'u1', thread_id: 'ffffffffffffffffffffffff' }, headers);
    expect(missing.status).toBe(404);
    const invalid = await t.http.post(SEND, { text: 'hello' }, headers);
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.code).toBe('validation_error');
    const ok = await t.http.post(SEND, { text: 'hello', user_id: 'u1' }, headers);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();
    expect(await interactions()).toBe(1);
  });

  it('replays publish and push without a second revision', async () => {
    const base = `/management/v1/agents/${shop.agentId}/versions/${shop.versionId}`;
    const key = newKey();
    const bundle = { ...shopBundle, welcome_message: 'Hello again' };
    const push = await t.http.post(`${base}/push`, { bundle }, { ...org.headers, 'idempotency-key': key });
    expect(push.status).toBe(200);
    const pushAgain = await t.http.post(`${base}/push`, { bundle }, { ...org.headers, 'idempotency-key': key });
    expect(pushAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(pushAgain.text).toBe(push.text);
    const publishKey = newKey();
    const publish = await t.http.post(`${base}/publish`, undefined, { ...org.headers, 'idempotency-key': publishKey });
    expect(publish.status).toBe(200);
    const publishAgain = await t.http.post(`${base}/publish`, undefined, { ...org.headers, 'idempotency-key': publishKey });
    expect(publishAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(publishAgain.text).toBe(publish.text);
  });

  it('replays a stream: the same SSE events, one turn', async () => {
    const key = newKey();
    const body = { text: 'I am looking for trail shoes', user_id: 'u1' };
    const first = await openSse(t.baseUrl, '/messaging/v1/messages/stream', { headers: { ...shop.headers, 'idempotency-key': key }, body });
    expect(first.status).toBe(200);
    const events = await first.collect();
    expect(events.at(-1)!.event).toBe('done');
    const again = await openSse(t.baseUrl, '/messaging/v1/messages/stream', { headers: { ...shop.headers, 'idempotency-key': key }, body });
    expect(again.status).toBe(200);
    expect(again.headers.get('content-type')).toContain('text/event-stream');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.collect()).toEqual(events);
    expect(await interactions()).toBe(1);
    // The stream's key is its own route's: the same key on send is another scope.
    const reused = await openSse(t.baseUrl, '/messaging/v1/messages/stream', {
      headers: { ...shop.headers, 'idempotency-key': key },
      body: { ...body, text: 'other' },
    });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
  });

  it('replays the whole stream to a client that went away after the first event', async () => {
    const key = newKey();
    const body = { text: 'I am looking for trail shoes', user_id: 'u1' };
    const headers = { ...shop.headers, 'idempotency-key': key };
    const first = await openSse(t.baseUrl, '/messaging/v1/messages/stream', { headers, body });
    const seen = await first.collect((event) => event.event === 'thread');
    first.abort();
    // The turn runs to its end without the client; the repeat gets every event of it once it is stored.
    const again = await waitFor(async () => {
      const res = await openSse(t.baseUrl, '/messaging/v1/messages/stream', { headers, body });
      return res.status === 200 ? res : res.body?.error?.code === 'idempotency_key_in_progress' ? undefined : res;
    }, 'the stored stream');
    expect(again.status).toBe(200);
    const events = await again.collect();
    expect(events[0]).toEqual(seen[0]);
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['thread', 'message', 'suggestions', 'done']));
    expect(events.at(-1)!.event).toBe('done');
    expect(await interactions()).toBe(1);
  });

  it('lets browsers send Idempotency-Key and read Idempotent-Replayed (CORS)', async () => {
    const preflight = await t.http.request('OPTIONS', SEND, {
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, idempotency-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('idempotency-key');
    const key = newKey();
    const headers = { ...shop.headers, 'idempotency-key': key, origin: 'https://shop.example' };
    await t.http.post(SEND, { text: 'hello', user_id: 'u1' }, headers);
    const replay = await t.http.post(SEND, { text: 'hello', user_id: 'u1' }, headers);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('access-control-expose-headers')).toContain('idempotent-replayed');
  });

  it('deletes expired keys in the cleanup, and takes an expired key over as new', async () => {
    const key = newKey();
    const body = { text: 'hello', user_id: 'u1' };
    await t.http.post(SEND, body, { ...shop.headers, 'idempotency-key': key });
    await t.dataSource.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second'`);
    // An expired key is a new key, even before the cleanup ran.
    const fresh = await t.http.post(SEND, { text: 'other', user_id: 'u1' }, { ...shop.headers, 'idempotency-key': key });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    await t.dataSource.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second'`);
    await t.http.post(SEND, body, { ...shop.headers, 'idempotency-key': newKey() });
    expect(await t.app.get(IdempotencyCleaner).clean()).toBe(1);
    expect(await keyRows()).toBe(1);
  });
});

/** Statements each request of the test app causes (as test/perf/round-trips.e2e-spec.ts counts them). */
const statements = new AsyncLocalStorage<string[]>();
let recording: string[] | null = null;
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const into = statements.getStore();
  if (into) {
    const first = args[0] as string | { text?: string };
    into.push((typeof first === 'string' ? first : (first.text ?? '')).replace(/\s+/g, ' ').trim().split(' ').slice(0, 3).join(' '));
  }
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

describe('Idempotency-Key on the events webhook, across two API processes', () => {
  let t: TestApp;
  let other: ServiceProcess;
  let org: TestOrg;
  let headers: Record<string, string>;
  let seq = 0;
  const newKey = () => `evt-${process.pid}-${Date.now()}-${(seq += 1)}`;
  const EVENTS = '/messaging/v1/events';

  beforeAll(async () => {
    t = await createTestApp();
    t.app.getHttpServer().prependListener('request', () => {
      if (recording) statements.enterWith(recording);
    });
    other = await startServiceProcess();
  }, 60_000);
  beforeEach(async () => {
    await t.reset();
    org = await t.factory.org();
    const shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    const key = (await t.http.post(`/management/v1/agents/${shop.agentId}/api-keys`, {}, org.headers)).body.api_key as string;
    headers = { 'x-agent-api-key': key };
  });
  afterAll(async () => {
    await other?.stop();
    await t?.close();
  });

  const events = async () => Number((await t.dataSource.query<Array<{ n: string }>>(`SELECT count(*) AS n FROM events`))[0]!.n);

  it('20 concurrent deliveries of one key, split over two instances: one event_id, one event row', async () => {
    const key = newKey();
    const body = { text: 'Order 1042 was delivered', thread_id: 'order-1042' };
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? t.http : other.http).post(EVENTS, body, { ...headers, 'idempotency-key': key })),
    );
    expect(responses.every((r) => r.status === 202 || r.status === 409)).toBe(true);
    const accepted = responses.filter((r) => r.status === 202);
    expect(new Set(accepted.map((r) => r.body.event_id)).size).toBe(1);
    expect(accepted.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    for (const r of responses.filter((r) => r.status === 409)) expect(r.body.error.code).toBe('idempotency_key_in_progress');
    expect(await events()).toBe(1);

    // Later repeats on either instance get the same id.
    for (const client of [t.http, other.http]) {
      const again = await client.post(EVENTS, body, { ...headers, 'idempotency-key': key });
      expect({ status: again.status, id: again.body.event_id }).toEqual({ status: 202, id: accepted[0]!.body.event_id });
    }
    const reused = await other.http.post(EVENTS, { ...body, text: 'Order 1043' }, { ...headers, 'idempotency-key': key });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
    expect(await events()).toBe(1);
  });

  it('a repeat that takes over from a first request that crashed after storing its event answers the same event_id', async () => {
    const key = newKey();
    const body = { text: 'Order 7 shipped', thread_id: 'order-7' };
    const first = await t.http.post(EVENTS, body, { ...headers, 'idempotency-key': key });
    expect(first.status).toBe(202);
    // What a crash between the event's INSERT and the stored response leaves: the key running, its lease expired.
    await t.dataSource.query(
      `UPDATE idempotency_keys SET state = 'running', response_status = NULL, response_kind = NULL, response_body = NULL,
              lease_expires_at = now() - interval '1 second'`,
    );
    const retried = await other.http.post(EVENTS, body, { ...headers, 'idempotency-key': key });
    expect(retried.status).toBe(202);
    expect(retried.body.event_id).toBe(first.body.event_id);
    expect(await events()).toBe(1);
  });

  it('a keyed accept costs the claim, the INSERT and the stored response; a repeat one statement', async () => {
    const body = { text: 'Order 9 packed', thread_id: 'order-9' };
    await t.http.post(EVENTS, body, { ...headers, 'idempotency-key': newKey() });
    const key = newKey();
    const record = async (): Promise<string[]> => {
      recording = [];
      try {
        expect((await t.http.post(EVENTS, body, { ...headers, 'idempotency-key': key })).status).toBe(202);
        await new Promise((resolve) => setTimeout(resolve, 50));
        return recording;
      } finally {
        recording = null;
      }
    };
    expect(await record()).toEqual([
      expect.stringMatching(/^WITH claimed AS/),
      expect.stringMatching(/^INSERT INTO events/),
      expect.stringMatching(/^UPDATE idempotency_keys SET/),
    ]);
    expect(await record()).toEqual([expect.stringMatching(/^WITH claimed AS/)]);
  });

  it('without a key every delivery is a new event; without credentials it is 401', async () => {
    const body = { text: 'ping' };
    const a = await t.http.post(EVENTS, body, headers);
    const b = await other.http.post(EVENTS, body, headers);
    expect(a.body.event_id).not.toBe(b.body.event_id);
    expect((await t.http.post(EVENTS, body, { 'idempotency-key': newKey() })).status).toBe(401);
    expect(await events()).toBe(2);
  });
});
