import { createTestApp, type TestApp } from '../support/test-app.js';

describe('cross-cutting HTTP behaviour', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  it('GET /health answers {"status":"ok"} without credentials', async () => {
    const res = await t.http.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('GET /health/ready reports PostgreSQL and Redis', async () => {
    const res = await t.http.get('/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });

  it('sets security headers', async () => {
    const res = await t.http.get('/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toContain('max-age');
  });

  it('answers an unknown route with the envelope and a matching request id', async () => {
    const res = await t.http.get('/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'not_found' });
    expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  });

  it("keeps the caller's valid x-request-id and replaces an invalid one", async () => {
    const kept = await t.http.get('/no/such/route', { 'x-request-id': 'trace-abc.123' });
    expect(kept.headers.get('x-request-id')).toBe('trace-abc.123');
    expect(kept.body.error.request_id).toBe('trace-abc.123');
    const replaced = await t.http.get('/no/such/route', { 'x-request-id': 'bad id with spaces' });
    expect(replaced.headers.get('x-request-id')).not.toBe('bad id with spaces');
    expect(replaced.body.error.request_id).toBe(replaced.headers.get('x-request-id'));
  });

  it('answers a wrong method 405 with Allow and the envelope', async () => {
    const org = await t.factory.org();
    const res = await t.http.request('PUT', '/management/v1/projects', { headers: org.headers, body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect(res.body.error.code).toBe('method_not_allowed');
  });

  it('answers malformed JSON 422 validation_error and creates nothing', async () => {
    const org = await t.factory.org();
    const res = await t.http.request('POST', '/management/v1/projects', {
      headers: { ...org.headers, 'content-type': 'application/json' },
      raw: '{"name": "abc',
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'validation_error', details: [{ field: 'body' }] });
    const list = await t.http.get('/management/v1/projects', org.headers);
    expect(list.body.results).toHaveLength(0);
  });

  it('answers a body over 1 MiB 413 payload_too_large', async () => {
    const org = await t.factory.org();
    const res = await t.http.post('/management/v1/projects', { name: 'x'.repeat(1024 * 1024 + 10) }, org.headers);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });

  it('answers an unsupported content type 415', async () => {
    const org = await t.factory.org();
    const res = await t.http.request('POST', '/management/v1/projects', {
      headers: { ...org.headers, 'content-type': 'text/plain' },
      raw: 'name=abc',
    });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('unsupported_media_type');
  });

  it('answers a malformed path id 422 naming the parameter', async () => {
    const org = await t.factory.org();
    const res = await t.http.get('/management/v1/projects/not-an-id', org.headers);
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ field: 'projectId', message: expect.any(String) }]);
  });

  it('answers unexpected errors 500 internal_error without internals', async () => {
    const org = await t.factory.org();
    await t.dataSource.query('ALTER TABLE projects RENAME COLUMN name TO name_broken');
    try {
      const res = await t.http.post('/management/v1/projects', { name: 'boom' }, org.headers);
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('internal_error');
      expect(res.text).not.toMatch(/name_broken|column|SELECT|INSERT|at .*\.js/i);
    } finally {
      await t.dataSource.query('ALTER TABLE projects RENAME COLUMN name_broken TO name');
    }
  });

  it('serves the OpenAPI document (0.1.0) and Swagger UI', async () => {
    const doc = await t.http.get('/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.info.version).toBe('0.1.0');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/health', '/management/v1/projects', '/management/v1/auth/token']),
    );
    expect(doc.body.components.securitySchemes).toHaveProperty('organization-api-key');
    const ui = await t.http.get('/docs');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
    // The page gets helmet's full set with what Swagger UI needs; JSON answers the API's compact, stricter one.
    expect(ui.headers.get('content-security-policy')).toContain(`script-src 'self' https: 'unsafe-inline'`);
    expect(ui.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const api = await t.http.get('/health');
    expect(api.headers.get('content-security-policy')).toBe(`default-src 'none';frame-ancestors 'none'`);
    expect(api.headers.get('x-frame-options')).toBe('DENY');
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    expect(api.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    expect(api.headers.get('x-xss-protection')).toBeNull();
  });

  it('allows CORS preflight on messaging and the token endpoint, not on management', async () => {
    const preflight = (path: string) =>
      t.http.request('OPTIONS', path, {
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    const token = await preflight('/management/v1/auth/token');
    expect(token.status).toBe(204);
    expect(token.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    const messaging = await preflight('/messaging/v1/messages');
    expect(messaging.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    const management = await preflight('/management/v1/projects');
    expect(management.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('rate limits and base paths', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '60', BASE_PATH: '/api' });
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  it('answers 429 rate_limited with Retry-After once a credential exceeds its limit, per credential', async () => {
    const org = await t.factory.org();
    const other = await t.factory.org();
    // Every counted answer says where the window stands (RateLimit-* headers, docs/api.md).
    const window = (res: { headers: Headers }) =>
      ['ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining'].map((name) => res.headers.get(name));
    for (let i = 0; i < 3; i += 1) {
      const res = await t.http.get('/api/management/v1/projects', org.headers);
      expect([res.status, ...window(res)]).toEqual([200, '3;w=60', '3', String(2 - i)]);
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      expect(Number(res.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60);
    }
    const limited = await t.http.get('/api/management/v1/projects', org.headers);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(window(limited)).toEqual(['3;w=60', '3', '0']);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('retry-after')).toBe(limited.headers.get('ratelimit-reset'));
    expect((await t.http.get('/api/management/v1/projects', other.headers)).status).toBe(200);
  });

  it('prefixes every route with BASE_PATH and serves the legacy -v2 path with Deprecation and Sunset', async () => {
    expect((await t.http.get('/api/health')).status).toBe(200);
    expect((await t.http.get('/health')).status).toBe(404);
    const legacy = await t.http.get('/api-v2/health');
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get('deprecation')).toBe('true');
    expect(legacy.headers.get('sunset')).toMatch(/GMT$/);
    expect((await t.http.get('/api/openapi.json')).status).toBe(200);
  });

  it('applies the edge rules under BASE_PATH and on the legacy path: media types, agent key first, URL errors', async () => {
    const org = await t.factory.org();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(
      (await t.http.request('POST', '/api/management/v1/projects', { headers: { ...org.headers, ...form }, raw: 'name=abc' })).body.error
        .code,
    ).toBe('unsupported_media_type');
    const token = await t.http.request('POST', '/api/management/v1/auth/token', {
      headers: form,
      raw: 'grant_type=publishable_key&publishable_key=pk_unknown',
    });
    expect(token.body).toEqual({ error: 'invalid_grant', error_description: 'invalid_publishable_key' });
    for (const path of ['/api/messaging/v1/events', '/api-v2/messaging/v1/events']) {
      const res = await t.http.request('POST', path, { headers: { 'content-type': 'text/plain' }, raw: 'hello' });
      expect(res.status).toBe(401);
      expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
    }
    const badUrl = await t.http.get('/api/management/v1/projects/%zz', org.headers);
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error.request_id).toBe(badUrl.headers.get('x-request-id'));
    expect((await t.http.get(`/api/management/v1/projects/${'a'.repeat(300)}`, org.headers)).body.error.details).toEqual([
      { field: 'projectId', message: expect.any(String) },
    ]);
  });
});
