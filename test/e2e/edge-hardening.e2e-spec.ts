import { request as httpRequest } from 'node:http';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import type { HttpResponse } from '../support/http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const JSON_TYPE = { 'content-type': 'application/json' };
const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };
const EVENTS = '/messaging/v1/events';
/** 10,000 levels of nesting in 20 kB: what overflowed the stack in validation before any limit applied. */
const DEEP_BRACKETS = '['.repeat(10_000) + ']'.repeat(10_000);

function expectEnvelope(res: HttpResponse, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.body.error).toMatchObject({ code, request_id: res.headers.get('x-request-id') });
  expect(res.headers.get('x-request-id')).toBeTruthy();
}

function expectFieldError(res: HttpResponse, field: string): void {
  expectEnvelope(res, 422, 'validation_error');
  expect(res.body.error.details).toEqual([{ field, message: expect.any(String) }]);
}

/** Sends a request fetch would refuse to build (raw bytes on the socket): over-long headers. */
function rawRequest(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the HTTP edge', () => {
  let t: TestApp;
  let org: TestOrg;

  /** Rows of every table: a rejected request must leave all of them as they were. */
  async function rowCounts(): Promise<Record<string, number>> {
    const tables: Array<{ name: string }> = await t.dataSource.query(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables) counts[name] = Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM "${name}"`))[0].n);
    return counts;
  }

  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await t.reset();
    org = await t.factory.org();
  });
  afterAll(() => t.close());

  describe('strings PostgreSQL cannot store (NUL, lone surrogates)', () => {
    let agent: LiveTestAgent;
    let agentId: string;
    beforeEach(async () => {
      agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      agentId = agent.agentId;
    });

    it('answers 422 naming the body field, on management and messaging, and writes nothing', async () => {
      const before = await rowCounts();
      expectFieldError(await t.http.post('/management/v1/projects', { name: 'a\u0000b' }, org.headers), 'name');
      expectFieldError(
        await t.http.patch(`/management/v1/agents/${agentId}`, { description: 'lone \ud800 surrogate' }, org.headers),
        'description',
      );
      expectFieldError(await t.http.post('/messaging/v1/messages', { text: 'hi\u0000', user_id: 'u1' }, agent.headers), 'text');
      expectFieldError(
        await t.http.post(
          '/messaging/v1/messages',
          { text: 'hi', user_id: 'u1', agent_variables: { dynamic: { cart: ['ok', 'bad \udc00'] } } },
          agent.headers,
        ),
        'agent_variables.dynamic.cart[1]',
      );
      expect(await rowCounts()).toEqual(before);
    });

    it('answers 422 for such a key, naming the object that holds it', async () => {
      const before = await rowCounts();
      expectFieldError(
        await t.http.post(
          '/messaging/v1/messages',
          { text: 'hi', user_id: 'u1', agent_variables: { static: { 'st\u0000ore': 'x' } } },
          agent.headers,
        ),
        'agent_variables.static',
      );
      expectFieldError(await t.http.post('/messaging/v1/messages', { text: 'hi', user_id: 'u1', ['\ud800']: 1 }, agent.headers), 'body');
      expect(await rowCounts()).toEqual(before);
    });

    it('answers 422 naming the query parameter or the path parameter', async () => {
      expectFieldError(await t.http.get('/management/v1/threads?user_id=%00', org.headers), 'user_id');
      expectFieldError(await t.http.get('/management/v1/projects?page%5Bafter%5D=x%00y', org.headers), 'page[after]');
      expectFieldError(await t.http.get('/management/v1/templates/shop%00', org.headers), 'templateId');
      const before = await rowCounts();
      expectFieldError(
        await t.http.post('/messaging/v1/channels/sms%00/threads', { phone_number: '+15557654321', user_id: 'u1' }, agent.headers),
        'channel',
      );
      expect(await rowCounts()).toEqual(before);
    });

    it('checks form bodies too (the token endpoint answers with its OAuth body)', async () => {
      const res = await t.http.request('POST', '/management/v1/auth/token', {
        headers: FORM_TYPE,
        raw: 'grant_type=password&username=a%00b%40example.com&password=x',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_request', error_description: 'invalid_or_missing_fields: username' });
    });
  });

  describe('deeply nested JSON', () => {
    it('is refused 422 on a management route before anything is built, and nothing is written', async () => {
      const before = await rowCounts();
      const res = await t.http.request('POST', '/management/v1/projects', {
        headers: { ...org.headers, ...JSON_TYPE },
        raw: DEEP_BRACKETS,
      });
      expectFieldError(res, 'body');
      const nested = await t.http.request('POST', '/management/v1/projects', {
        headers: { ...org.headers, ...JSON_TYPE },
        raw: `{"name":"p","x":${'{"a":'.repeat(65)}1${'}'.repeat(65)}}`,
      });
      expectFieldError(nested, 'body');
      expect(await rowCounts()).toEqual(before);
      expect((await t.http.get('/health')).status).toBe(200);
    });

    it('is refused on the unauthenticated token endpoint with the OAuth body, many times over', async () => {
      // The review's reproduction: 200 kB of brackets per request, concurrently.
      const brackets = '['.repeat(100_000) + ']'.repeat(100_000);
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => t.http.request('POST', '/management/v1/auth/token', { headers: JSON_TYPE, raw: brackets })),
      );
      for (const res of responses) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'invalid_request', error_description: 'invalid_or_missing_fields: body' });
        expect(res.headers.get('x-request-id')).toBeTruthy();
      }
      expect((await t.http.get('/health')).status).toBe(200);
    });
  });

  describe('malformed JSON, prototype poisoning and empty bodies keep their answers', () => {
    it('answers invalid JSON and __proto__ 422 naming the body; an empty JSON body is no body', async () => {
      const headers = { ...org.headers, ...JSON_TYPE };
      expectFieldError(await t.http.request('POST', '/management/v1/projects', { headers, raw: '{"name": "abc' }), 'body');
      expectFieldError(
        await t.http.request('POST', '/management/v1/projects', { headers, raw: '{"name":"abc","__proto__":{"admin":true}}' }),
        'body',
      );
      expectFieldError(
        await t.http.request('POST', '/management/v1/projects', {
          headers,
          raw: '{"name":"abc","constructor":{"prototype":{"admin":true}}}',
        }),
        'body',
      );
      const empty = await t.http.request('POST', '/management/v1/projects', { headers, raw: '' });
      expectEnvelope(empty, 422, 'validation_error');
      expect(empty.body.error.details.map((d: { field: string }) => d.field)).toContain('name');
      expect((await t.http.get('/management/v1/projects', org.headers)).body.results).toHaveLength(0);
    });
  });

  describe('router and protocol errors use the envelope', () => {
    it('answers a 200-character path id 422 naming the path parameter', async () => {
      const res = await t.http.get(`/management/v1/projects/${'a'.repeat(200)}`, org.headers);
      expectFieldError(res, 'projectId');
      const huge = await t.http.get(`/management/v1/agents/${'f'.repeat(5000)}/versions`, org.headers);
      expectFieldError(huge, 'agentId');
    });

    it('answers a bad percent-escape in the path 400 bad_request', async () => {
      expectEnvelope(await t.http.get('/management/v1/projects/%zz', org.headers), 400, 'bad_request');
      const custom = await t.http.get('/management/v1/projects/%E0%A4%A', { ...org.headers, 'x-request-id': 'edge-test-1' });
      expectEnvelope(custom, 400, 'bad_request');
      expect(custom.body.error.request_id).toBe('edge-test-1');
      expect(custom.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('answers 20 kB of headers 431 in the envelope', async () => {
      const port = (t.app.getHttpServer().address() as { port: number }).port;
      const res = await rawRequest(port, '/health', { 'x-padding': 'p'.repeat(20_000) });
      expect(res.status).toBe(431);
      expect(res.body.error).toMatchObject({ code: 'headers_too_large', request_id: res.headers['x-request-id'] });
      expect(res.headers['x-request-id']).toBeTruthy();
    });
  });

  describe('events webhook: authentication comes first', () => {
    let apiKey: string;
    beforeEach(async () => {
      const agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      apiKey = expectStatus(await t.http.post(`/management/v1/agents/${agent.agentId}/api-keys`, {}, org.headers), 201, 'api key').body
        .api_key;
    });

    it.each([
      ['no key', {}],
      ['a wrong key', { 'x-agent-api-key': 'aak_not-a-key' }],
      ['an organization key', undefined],
    ])('answers 401 with %s, whatever the body', async (_label, credentials) => {
      const headers = credentials ?? org.headers;
      const bodies: Array<[string, string]> = [
        ['{"text": ', 'application/json'],
        [JSON.stringify({ text: 'x'.repeat(1_100_000), user_id: 'u1' }), 'application/json'],
        ['hello', 'text/plain'],
        [DEEP_BRACKETS, 'application/json'],
      ];
      const before = await rowCounts();
      for (const [raw, type] of bodies) {
        expectEnvelope(await t.http.request('POST', EVENTS, { headers: { ...headers, 'content-type': type }, raw }), 401, 'unauthorized');
      }
      expect(await rowCounts()).toEqual(before);
    });

    it('with a valid key, still checks the body: 422 (deep nesting and NUL included, not 502), 413, 415', async () => {
      const headers = { 'x-agent-api-key': apiKey };
      const before = await rowCounts();
      expectFieldError(await t.http.request('POST', EVENTS, { headers: { ...headers, ...JSON_TYPE }, raw: '{"text": ' }), 'body');
      expectFieldError(
        await t.http.request('POST', EVENTS, {
          headers: { ...headers, ...JSON_TYPE },
          raw: `{"text":"hi","user_id":"u1","metadata":${DEEP_BRACKETS}}`,
        }),
        'body',
      );
      expectFieldError(await t.http.post(EVENTS, { text: 'hi\u0000', user_id: 'u1', thread_id: 'ext-1' }, headers), 'text');
      expect(await rowCounts()).toEqual(before);
      expectEnvelope(
        await t.http.request('POST', EVENTS, {
          headers: { ...headers, ...JSON_TYPE },
          raw: JSON.stringify({ text: 'x'.repeat(1_100_000), user_id: 'u1' }),
        }),
        413,
        'webhooks.payload_too_large',
      );
      expectEnvelope(
        await t.http.request('POST', EVENTS, { headers: { ...headers, 'content-type': 'text/plain' }, raw: 'hello' }),
        415,
        'unsupported_media_type',
      );
      expect((await t.http.post(EVENTS, { text: 'hello', user_id: 'u1', thread_id: 'ext-1' }, headers)).status).toBe(202);
    });
  });

  describe('media types', () => {
    it('answers a form body to a JSON route 415 and creates nothing', async () => {
      const res = await t.http.request('POST', '/management/v1/projects', { headers: { ...org.headers, ...FORM_TYPE }, raw: 'name=abc' });
      expectEnvelope(res, 415, 'unsupported_media_type');
      expect((await t.http.get('/management/v1/projects', org.headers)).body.results).toHaveLength(0);
    });

    it('still accepts forms on the token endpoint', async () => {
      const agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      const key = expectStatus(await t.http.post(`/management/v1/agents/${agent.agentId}/publishable-keys`, {}, org.headers), 201, 'key')
        .body.publishable_key;
      const res = await t.http.request('POST', '/management/v1/auth/token', {
        headers: FORM_TYPE,
        raw: new URLSearchParams({ grant_type: 'publishable_key', publishable_key: key }).toString(),
      });
      expect(res.status).toBe(200);
      expect(res.body.access_token).toEqual(expect.any(String));
    });
  });
});
