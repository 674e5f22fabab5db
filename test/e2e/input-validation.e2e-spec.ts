import WebSocket from 'ws';
import type { TestOrg } from '../factories/factory.js';
import { liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { openSse } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { TURNS_WITH_MESSAGES } from '../support/threads.js';

const SEND = '/messaging/v1/messages';
const STREAM = '/messaging/v1/messages/stream';
const MAX_TEXT = 16_384;

/** Date-times that look like RFC 3339 but name no instant PostgreSQL takes (or none at all). */
const IMPOSSIBLE_DATE_TIMES = [
  '2024-02-30T00:00:00Z', // no 30 February
  '2023-02-29T00:00:00Z', // not a leap year
  '0000-01-01T00:00:00Z', // no year 0
  '2024-01-01T00:00:00+99:00',
  '2024-01-01T00:00:00+16:00', // RFC 3339 grammar allows it, PostgreSQL refuses it
  '2024-01-01T24:00:00Z',
  '2024-12-31T23:59:60Z',
  '2024-13-01T00:00:00Z',
];

/** A cursor as the lists encode them (base64url of JSON), with whatever content a forger likes. */
const forge = (content: unknown) => Buffer.from(JSON.stringify(content)).toString('base64url');
const SOME_ID = 'a'.repeat(24);

const fields = (res: { body: any }) => (res.body?.error?.details ?? []).map((d: { field: string }) => d.field);

/** A message of exactly `length` characters made of short words, so the engine's cost stays small. */
const textOf = (length: number) => 'show me trail shoes '.repeat(Math.ceil(length / 20)).slice(0, length);

describe('field-level input validation', () => {
  let t: TestApp;
  let org: TestOrg;
  let shop: LiveTestAgent;
  let threadId: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    org = await t.factory.org();
    shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    const first = await t.http.post(SEND, { text: 'show me jackets', user_id: 'u1' }, shop.headers);
    expect(first.status).toBe(200);
    threadId = first.body.thread_id;
  });
  afterAll(() => t.close());

  const count = async (table: string): Promise<number> => {
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`);
    return n;
  };

  const expect422 = (res: { status: number; body: any; headers: Headers }, field: string) => {
    expect({ status: res.status, code: res.body?.error?.code, fields: fields(res) }).toEqual({
      status: 422,
      code: 'validation_error',
      fields: expect.arrayContaining([field]),
    });
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  };

  describe('date-times are validated by round-trip', () => {
    it.each(IMPOSSIBLE_DATE_TIMES)('threads `created` refuses %s with 422', async (value) => {
      for (const query of [`created=${encodeURIComponent(value)}`, `created=2024-01-01T00:00:00Z&created=${encodeURIComponent(value)}`]) {
        expect422(await t.http.get(`/management/v1/threads?${query}`, org.headers), 'created');
      }
    });

    it.each(IMPOSSIBLE_DATE_TIMES)('usage created_from / created_to refuse %s with 422', async (value) => {
      for (const field of ['created_from', 'created_to']) {
        expect422(
          await t.http.get(`/management/v1/agents/${shop.agentId}/usage?${field}=${encodeURIComponent(value)}`, org.headers),
          field,
        );
      }
    });

    it('still accepts every RFC 3339 form PostgreSQL takes: leap day, offsets to ±14:00, lower case, nanoseconds', async () => {
      for (const value of [
        '2024-02-29T00:00:00Z',
        '2024-01-01T00:00:00+14:00',
        '2024-01-01T00:00:00-12:00',
        '2024-01-01t00:00:00z',
        '2024-01-01T00:00:00.123456789Z',
        '9999-12-31T23:59:59.999Z',
      ]) {
        const threads = await t.http.get(`/management/v1/threads?created=${encodeURIComponent(value)}`, org.headers);
        expect([value, threads.status]).toEqual([value, 200]);
        const usage = await t.http.get(`/management/v1/agents/${shop.agentId}/usage?created_to=${encodeURIComponent(value)}`, org.headers);
        expect([value, usage.status]).toEqual([value, 200]);
      }
    });

    it.each(IMPOSSIBLE_DATE_TIMES)('a base64-valid cursor holding %s is 422 naming the cursor parameter', async (value) => {
      const cursor = forge(['created_at', 'desc', value, SOME_ID]);
      for (const param of ['page[after]', 'page[before]']) {
        for (const path of ['/management/v1/threads', '/management/v1/projects', `/management/v1/agents/${shop.agentId}/versions`]) {
          expect422(await t.http.get(`${path}?${param}=${cursor}`, org.headers), param);
        }
      }
    });
  });

  describe('versions list cursors go through the shared keyset checks', () => {
    const forged: Array<[string, string, string]> = [
      ['a number where a date belongs', 'created_at', forge(['created_at', 'desc', 5, SOME_ID])],
      ['an object where a date belongs', 'created_at', forge(['created_at', 'desc', { a: 1 }, SOME_ID])],
      ['a non-date', 'created_at', forge(['created_at', 'desc', 'yesterday', SOME_ID])],
      ['a date with a trailing payload', 'created_at', forge(['created_at', 'desc', "2024-01-01T00:00:00Z') OR 1=1 --", SOME_ID])],
      ['a string where a number belongs', 'number', forge(['number', 'desc', 'abc', SOME_ID])],
      ['an integer beyond int4', 'number', forge(['number', 'desc', 1e300, SOME_ID])],
      ['a fraction where a version number belongs', 'number', forge(['number', 'desc', 1.5, SOME_ID])],
      ['an id that is not 24 hex', 'created_at', forge(['created_at', 'desc', '2024-01-01T00:00:00.000Z', 'x'])],
      ['an object', 'created_at', forge({ sort: 'created_at' })],
      ['a bare number', 'created_at', forge(42)],
      ['not base64 JSON', 'created_at', '!!!'],
      ['another sort', 'number', forge(['created_at', 'desc', '2024-01-01T00:00:00.000Z', SOME_ID])],
    ];

    it.each(forged)('refuses %s with 422 naming page[after] / page[before]', async (_name, sortBy, cursor) => {
      for (const param of ['page[after]', 'page[before]']) {
        expect422(
          await t.http.get(`/management/v1/agents/${shop.agentId}/versions?sort_by=${sortBy}&${param}=${cursor}`, org.headers),
          param,
        );
      }
    });

    it('still pages with its own cursors in every sort, both ways', async () => {
      for (const sortBy of ['created_at', 'updated_at', 'number']) {
        const first = await t.http.get(`/management/v1/agents/${shop.agentId}/versions?sort_by=${sortBy}&page[size]=1`, org.headers);
        expect(first.status).toBe(200);
        const cursor = first.body.meta.after_cursor as string;
        for (const param of ['page[after]', 'page[before]']) {
          const next = await t.http.get(`/management/v1/agents/${shop.agentId}/versions?sort_by=${sortBy}&${param}=${cursor}`, org.headers);
          expect([sortBy, param, next.status]).toEqual([sortBy, param, 200]);
        }
      }
    });
  });

  describe('agent_id present in a turn body is refused, whatever its value', () => {
    const values: Array<[string, unknown]> = [
      ['null', null],
      ['an empty string', ''],
      ['an id', SOME_ID],
      ['false', false],
    ];

    it.each(values)('send and stream: agent_id %s → 422 agent_id, nothing written', async (_name, agentId) => {
      const before = await count('interactions');
      expect422(await t.http.post(SEND, { text: 'hi', user_id: 'u1', agent_id: agentId }, shop.headers), 'agent_id');
      const stream = await openSse(t.baseUrl, STREAM, { headers: shop.headers, body: { text: 'hi', user_id: 'u1', agent_id: agentId } });
      expect({ status: stream.status, code: stream.body?.error?.code, fields: fields(stream) }).toEqual({
        status: 422,
        code: 'validation_error',
        fields: ['agent_id'],
      });
      expect(await count('interactions')).toBe(before);
    });

    it.each(values)('rerun: agent_id %s → 422 agent_id, nothing written', async (_name, agentId) => {
      const before = await count('interactions');
      expect422(await t.http.post(`/messaging/v1/threads/${threadId}/rerun`, { agent_id: agentId }, shop.headers), 'agent_id');
      expect(await count('interactions')).toBe(before);
    });

    it('WebSocket message frames: agent_id null or "" → error frame naming agent_id', async () => {
      const before = await count('interactions');
      const frames = await sessionFrames(t, shop, [
        { type: 'message', id: 'n1', text: 'hi', user_id: 'u1', agent_id: null },
        { type: 'message', id: 'n2', text: 'hi', user_id: 'u1', agent_id: '' },
      ]);
      for (const id of ['n1', 'n2']) {
        const error = frames.find((f) => f.id === id);
        expect({ id, type: error?.type, fields: error?.error?.details?.map((d: { field: string }) => d.field) }).toEqual({
          id,
          type: 'error',
          fields: ['agent_id'],
        });
      }
      expect(await count('interactions')).toBe(before);
    });
  });

  describe(`messages are at most ${MAX_TEXT} characters on every surface`, () => {
    const tooLong: Array<[string, string]> = [
      ['one character too many', textOf(MAX_TEXT + 1)],
      // class-validator's Length does not count U+FE0F; the limit must hold for it too.
      ['the limit plus a variation selector', `${textOf(MAX_TEXT)}\uFE0F`],
    ];

    it.each(tooLong)('send, stream and follow-up suggestions refuse %s with 422 naming text', async (_name, text) => {
      const before = await count('interactions');
      expect422(await t.http.post(SEND, { text, user_id: 'u1' }, shop.headers), 'text');
      const stream = await openSse(t.baseUrl, STREAM, { headers: shop.headers, body: { text, user_id: 'u1' } });
      expect({ status: stream.status, fields: fields(stream) }).toEqual({ status: 422, fields: ['text'] });
      expect422(await t.http.post('/messaging/v1/followup-suggestions', { text }, shop.headers), 'text');
      expect(await count('interactions')).toBe(before);
    });

    it('WebSocket message frames refuse a text over the limit', async () => {
      const [error] = await sessionFrames(t, shop, [{ type: 'message', id: 'long', text: textOf(MAX_TEXT + 1), user_id: 'u1' }]);
      expect(error).toMatchObject({
        type: 'error',
        id: 'long',
        error: { code: 'validation_error', details: [expect.objectContaining({ field: 'text' })] },
      });
    });

    it(`accepts exactly ${MAX_TEXT} characters (astral characters count once) on send and stream`, async () => {
      const text = `${textOf(MAX_TEXT - 2)}😀😀`;
      const sent = await t.http.post(SEND, { text, user_id: 'u1' }, shop.headers);
      expect(sent.status).toBe(200);
      const stream = await openSse(t.baseUrl, STREAM, { headers: shop.headers, body: { text, user_id: 'u1' } });
      expect(stream.status).toBe(200);
      await stream.collect();
      const rows = await t.dataSource.query(`SELECT length(user_text) AS n FROM ${TURNS_WITH_MESSAGES} WHERE thread_id IN ($1, $2)`, [
        sent.body.thread_id,
        threadId,
      ]);
      expect(rows.map((r: { n: number }) => r.n)).toContain(MAX_TEXT);
    });
  });

  describe('values PostgreSQL would refuse are a 422, not a 500', () => {
    // varchar(n) counts code points; class-validator's Length skips variation selectors, so these passed it.
    const overlong = (n: number) => `${'a'.repeat(n)}\uFE0F`;

    it('names and titles one character over their column', async () => {
      const projects = await count('projects');
      expect422(await t.http.post('/management/v1/projects', { name: overlong(100) }, org.headers), 'name');
      expect(await count('projects')).toBe(projects);
      const project = (await t.http.post('/management/v1/projects', { name: 'Validation' }, org.headers)).body;
      const agents = await count('agents');
      expect422(await t.http.post(`/management/v1/projects/${project.id}/agents`, { name: overlong(100) }, org.headers), 'name');
      expect(await count('agents')).toBe(agents);
      expect422(await t.http.patch(`/management/v1/agents/${shop.agentId}`, { name: overlong(100) }, org.headers), 'name');
      expect422(await t.http.patch(`/management/v1/threads/${threadId}`, { title: overlong(200) }, org.headers), 'title');
      const [thread] = await t.dataSource.query(`SELECT title FROM threads WHERE id = $1`, [threadId]);
      expect(thread.title).toBe('show me jackets');
    });

    it('a user_id one character over its column on send and stream', async () => {
      const before = await count('interactions');
      expect422(await t.http.post(SEND, { text: 'hi', user_id: overlong(255) }, shop.headers), 'user_id');
      const stream = await openSse(t.baseUrl, STREAM, { headers: shop.headers, body: { text: 'hi', user_id: overlong(255) } });
      expect({ status: stream.status, fields: fields(stream) }).toEqual({ status: 422, fields: ['user_id'] });
      expect(await count('interactions')).toBe(before);
    });

    it.each([
      ['filters[number] beyond int4', 'filters[number]=2147483648', 'filters[number]'],
      ['filters[number] far beyond', 'filters[number]=1e400', 'filters[number]'],
      ['filters[number] a fraction', 'filters[number]=1.5', 'filters[number]'],
      ['page[size] a fraction', 'page[size]=1.5', 'page[size]'],
      ['page[size] beyond int4', 'page[size]=4294967296', 'page[size]'],
      ['page[size] repeated', 'page[size]=1&page[size]=2', 'page[size]'],
    ])('versions list: %s → 422', async (_name, query, field) => {
      expect422(await t.http.get(`/management/v1/agents/${shop.agentId}/versions?${query}`, org.headers), field);
    });

    it.each([
      ['a user_id filter over 255 characters', `user_id=${'u'.repeat(256)}`, 'user_id'],
      ['a runtime_version of 40 digits', `runtime_version=${'9'.repeat(40)}`, 'runtime_version'],
      ['too many tool filters', Array.from({ length: 21 }, (_, i) => `tool=t${i}`).join('&'), 'tool'],
    ])('threads list: %s → 422', async (_name, query, field) => {
      expect422(await t.http.get(`/management/v1/threads?${query}`, org.headers), field);
    });

    it('a runtime_version of 40 digits on send → 422', async () => {
      expect422(await t.http.post(SEND, { text: 'hi', user_id: 'u1', runtime_version: '9'.repeat(40) }, shop.headers), 'runtime_version');
    });
  });
});

/** Opens a WebSocket session, sends `frames` once ready, and returns the first reply frame of each request id. */
async function sessionFrames(t: TestApp, agent: LiveTestAgent, frames: Array<Record<string, unknown>>): Promise<any[]> {
  const socket = new WebSocket(`${t.baseUrl.replace(/^http/, 'ws')}/messaging/v1/session`, { headers: agent.headers });
  const received: any[] = [];
  try {
    return await new Promise<any[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply to every frame; got ${JSON.stringify(received).slice(0, 500)}`)), 10_000);
      const pending = new Set(frames.map((f) => f.id));
      socket.on('error', reject);
      socket.on('message', (data) => {
        const frame = JSON.parse(data.toString());
        if (frame.type === 'ready') {
          for (const f of frames) socket.send(JSON.stringify(f));
          return;
        }
        if (!pending.has(frame.id)) return;
        pending.delete(frame.id);
        received.push(frame);
        if (pending.size === 0) {
          clearTimeout(timer);
          resolve(received);
        }
      });
    });
  } finally {
    socket.close();
  }
}
