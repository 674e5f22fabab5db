import { createTestApp, type TestApp } from '../support/test-app.js';
import type { HttpResponse } from '../support/http.js';

/**
 * The CORS answers of each surface, header by header (@fastify/cors with the per-surface delegator of app.setup.ts):
 * a change of CORS plumbing (docs/performance.md, "Per-request overhead") must keep them exactly.
 */
const PREFLIGHT = { 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' };
const cors = (res: HttpResponse) => {
  const picked: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (name.startsWith('access-control-') || name === 'vary') picked[name] = value;
  });
  return picked;
};

describe('CORS with management origins configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORS_MANAGEMENT_ORIGINS: 'https://admin.example,https://ops.example' });
  });
  afterAll(() => t.close());

  it('reflects any origin on the browser-facing surface, with its exposed headers and Vary: Origin', async () => {
    const res = await t.http.get('/messaging/v1/messages', { origin: 'https://shop.example' });
    expect(cors(res)).toEqual({
      'access-control-allow-origin': 'https://shop.example',
      'access-control-expose-headers':
        'x-request-id, retry-after, idempotent-replayed, ratelimit-policy, ratelimit-limit, ratelimit-remaining, ratelimit-reset',
      vary: 'Origin',
    });
  });

  it('answers a browser-facing preflight 204 with the fixed allowed headers and max age', async () => {
    const res = await t.http.request('OPTIONS', '/management/v1/auth/token', { headers: { origin: 'https://shop.example', ...PREFLIGHT } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(cors(res)).toEqual({
      'access-control-allow-origin': 'https://shop.example',
      'access-control-expose-headers':
        'x-request-id, retry-after, idempotent-replayed, ratelimit-policy, ratelimit-limit, ratelimit-remaining, ratelimit-reset',
      'access-control-allow-methods': 'GET,HEAD,POST',
      'access-control-allow-headers': 'authorization, content-type, last-event-id, x-request-id, idempotency-key',
      'access-control-max-age': '600',
      vary: 'Origin',
    });
  });

  it('reflects only a listed origin on management and echoes the requested headers in a preflight', async () => {
    const listed = await t.http.request('OPTIONS', '/management/v1/projects', { headers: { origin: 'https://ops.example', ...PREFLIGHT } });
    expect(listed.status).toBe(204);
    expect(cors(listed)).toEqual({
      'access-control-allow-origin': 'https://ops.example',
      'access-control-expose-headers':
        'x-request-id, retry-after, idempotent-replayed, ratelimit-policy, ratelimit-limit, ratelimit-remaining, ratelimit-reset',
      'access-control-allow-methods': 'GET,HEAD,POST',
      'access-control-allow-headers': 'authorization,content-type',
      'access-control-max-age': '600',
      vary: 'Origin, Access-Control-Request-Headers',
    });
    const other = await t.http.get('/management/v1/projects', { origin: 'https://evil.example' });
    expect(other.status).toBe(401);
    expect(cors(other)).toEqual({
      'access-control-expose-headers':
        'x-request-id, retry-after, idempotent-replayed, ratelimit-policy, ratelimit-limit, ratelimit-remaining, ratelimit-reset',
      vary: 'Origin',
    });
  });

  it('refuses a preflight without Origin or Access-Control-Request-Method (400), and sends nothing CORS without Origin', async () => {
    const noMethod = await t.http.request('OPTIONS', '/messaging/v1/messages', { headers: { origin: 'https://shop.example' } });
    expect(noMethod.status).toBe(400);
    expect(noMethod.text).toBe('Invalid Preflight Request');
    const noOrigin = await t.http.request('OPTIONS', '/management/v1/projects', { headers: PREFLIGHT });
    expect(noOrigin.status).toBe(400);
    const plain = await t.http.get('/health');
    expect(plain.status).toBe(200);
    expect(cors(plain)).toEqual({
      'access-control-expose-headers':
        'x-request-id, retry-after, idempotent-replayed, ratelimit-policy, ratelimit-limit, ratelimit-remaining, ratelimit-reset',
      vary: 'Origin',
    });
  });
});

describe('CORS without management origins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ CORS_MANAGEMENT_ORIGINS: '' });
  });
  afterAll(() => t.close());

  it('leaves management without CORS (only Vary: Origin) and refuses its preflight in the envelope', async () => {
    const get = await t.http.get('/management/v1/projects', { origin: 'https://admin.example' });
    expect(cors(get)).toEqual({ vary: 'Origin' });
    const preflight = await t.http.request('OPTIONS', '/management/v1/projects', {
      headers: { origin: 'https://admin.example', ...PREFLIGHT },
    });
    // The catch-all OPTIONS route hands it to not-found, which knows the path: 405 naming the methods it has.
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get('allow')).toBe('GET, POST');
    expect(preflight.body).toEqual({ error: { code: 'method_not_allowed', message: expect.any(String), request_id: expect.any(String) } });
    expect(cors(preflight)).toEqual({ vary: 'Origin' });
  });
});
