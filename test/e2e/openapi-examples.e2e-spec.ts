import { METHOD_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { signTwilioRequest } from '../support/fake-twilio-server.js';
import type { FakeTwilio } from '../support/fake-twilio-server.js';
import { expectStatus } from '../support/agents.js';
import type { HttpResponse } from '../support/http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { credentialsOf, operationsOf, type Operation } from '../hostile/support/operations.js';
import { fillPath, pathIds, PUBLIC_BASE, seedTenant, startHostileApp, type Tenant } from '../hostile/support/world.js';
import { IS_PUBLIC } from '../../src/modules/auth/decorators/auth.metadata.js';
import { TRAFFIC_EXAMPLE_CANDIDATE_VERSION, TRAFFIC_EXAMPLE_LIVE_VERSION } from '../../src/modules/versions/traffic.controller.js';

/**
 * The served OpenAPI document keeps its promises: every request example succeeds as sent (only path ids and
 * credentials are the test's own, created through the API), every error example is the envelope with a code its
 * status answers, every operation, parameter and field is described, and `security: []` marks exactly the public routes.
 */

/** The codes each error status may carry (ErrorCode, and the feature codes of the spec's error table). */
const CODES_BY_STATUS: Record<number, string[]> = {
  400: ['bad_request'],
  401: ['unauthorized'],
  403: ['forbidden'],
  404: ['not_found', 'no_active_version', 'webhooks.no_active_version', 'webhooks.no_runtime_version'],
  405: ['method_not_allowed'],
  409: [
    'conflict',
    'version_archived',
    'version_is_live',
    'sender_exists',
    'idempotency_key_in_progress',
    'version_in_traffic_split',
    'webhook_limit_reached',
  ],
  413: ['payload_too_large', 'webhooks.payload_too_large'],
  415: ['unsupported_media_type'],
  422: ['validation_error', 'unprocessable_input', 'idempotency_key_reused'],
  429: ['rate_limited'],
  500: ['internal_error'],
  502: ['upstream_unavailable'],
  503: ['not_ready', 'internal_error'],
  504: ['upstream_timeout'],
};
const OAUTH_ERRORS = ['invalid_request', 'invalid_grant', 'unsupported_grant_type', 'rate_limited', 'server_error'];

type Json = Record<string, any>;

const operationObjects = (document: Json): Array<{ key: string; path: string; method: string; op: Json }> =>
  Object.entries<Json>(document.paths).flatMap(([path, methods]) =>
    Object.entries<Json>(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, path, method, op })),
  );

describe('OpenAPI document: examples that work, descriptions, security', () => {
  let t: TestApp;
  let twilio: FakeTwilio;
  let close: () => Promise<void>;
  let tenant: Tenant;
  let user: { email: string; password: string };
  let document: Json;

  beforeAll(async () => {
    ({ t, twilio, close } = await startHostileApp());
    tenant = await seedTenant(t, 'examples');
    user = await t.factory.user(tenant.org);
    document = expectStatus(await t.http.get('/openapi.json'), 200, 'document').body;
  }, 60_000);
  afterAll(() => close());

  /** The example with the test's own credentials in the fields that carry one (token grants), and its own versions in a split. */
  function withCredentials(op: Operation, value: Json): Json {
    if (Array.isArray(value.splits)) {
      const own: Record<string, string> = {
        [TRAFFIC_EXAMPLE_LIVE_VERSION]: tenant.publishedVersionId,
        [TRAFFIC_EXAMPLE_CANDIDATE_VERSION]: tenant.candidateVersionId,
      };
      return { ...value, splits: value.splits.map((arm: Json) => ({ ...arm, version_id: own[arm.version_id] ?? arm.version_id })) };
    }
    if (op.surface !== 'token') return value;
    const own: Json = { ...value };
    if ('publishable_key' in own) own.publishable_key = tenant.publishableKey;
    if ('username' in own) own.username = user.email;
    if ('password' in own) own.password = user.password;
    return own;
  }

  async function send(op: Operation, contentType: string, value: Json): Promise<HttpResponse> {
    const url = fillPath(op.path, await pathIds(t, tenant, op.method, op.path));
    if (contentType === 'multipart/form-data') return sendMultipart(op, url, value);
    const headers: Record<string, string> = { ...credentialsOf(op.surface, tenant), 'content-type': contentType };
    if (contentType === 'application/json') return t.http.request(op.method, url, { headers, raw: JSON.stringify(value) });
    const form = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
    if (op.surface === 'providerWebhook') headers['x-twilio-signature'] = signTwilioRequest(twilio.authToken, `${PUBLIC_BASE}${url}`, form);
    return t.http.request(op.method, url, { headers, raw: new URLSearchParams(form).toString() });
  }

  /** A multipart example: each string of an array field is the content of one uploaded file (named by the test). */
  async function sendMultipart(op: Operation, url: string, value: Json): Promise<HttpResponse> {
    const form = new FormData();
    for (const [name, field] of Object.entries(value)) {
      if (Array.isArray(field)) {
        field.forEach((content, i) => form.append(name, new Blob([String(content)], { type: 'text/markdown' }), `example-${i}.md`));
      } else form.append(name, String(field));
    }
    const response = await fetch(`${t.baseUrl}${url}`, { method: op.method, headers: credentialsOf(op.surface, tenant), body: form });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text.startsWith('{') ? JSON.parse(text) : undefined };
  }

  it('sends every request example as written and gets the documented success status', async () => {
    const operations = new Map(operationsOf(document).map((op) => [op.key, op]));
    const sent: string[] = [];
    for (const { key, op } of operationObjects(document)) {
      if (!op.requestBody) continue;
      const success = Object.keys(op.responses)
        .map(Number)
        .filter((status) => status >= 200 && status < 300)
        .sort((a, b) => a - b)[0];
      expect({ key, success }).toEqual({ key, success: expect.any(Number) });
      for (const [contentType, media] of Object.entries<Json>(op.requestBody.content)) {
        expect({ where: `${key} ${contentType}`, examples: Object.keys(media.examples ?? {}).length > 0 }).toEqual({
          where: `${key} ${contentType}`,
          examples: true,
        });
        for (const [name, example] of Object.entries<Json>(media.examples)) {
          const res = await send(operations.get(key)!, contentType, withCredentials(operations.get(key)!, example.value));
          expect({ example: `${key} ${contentType} ${name}`, status: res.status, body: res.status === success ? '' : res.text }).toEqual({
            example: `${key} ${contentType} ${name}`,
            status: success,
            body: '',
          });
          if (key.endsWith('/messages/stream')) expect(res.text).toContain('event: done');
          sent.push(`${key} ${name}`);
        }
      }
    }
    // The send example starts a thread by itself: no made-up thread_id in it.
    const sendExamples = document.paths['/messaging/v1/messages'].post.requestBody.content['application/json'].examples;
    for (const example of Object.values<Json>(sendExamples)) expect(example.value).not.toHaveProperty('thread_id');
    // One token example per grant type the endpoint accepts.
    const token = document.paths['/management/v1/auth/token'].post.requestBody.content['application/json'].examples;
    expect(Object.values<Json>(token).map((e) => e.value.grant_type)).toEqual(['publishable_key', 'password']);
    expect(sent.length).toBeGreaterThanOrEqual(25);
  }, 120_000);

  it('documents each error status with its own example in the envelope, with a code of that status', () => {
    let checked = 0;
    for (const { key, path, op } of operationObjects(document)) {
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        if (Number(status) < 400) continue;
        const example = response.content?.['application/json']?.example;
        const where = `${key} ${status}`;
        if (path.endsWith('/auth/token')) {
          // The token endpoint answers OAuth 2.0 bodies (spec Authentication rule 7), not the envelope.
          expect({ where, error: OAUTH_ERRORS.includes(example?.error), description: typeof example?.error_description }).toEqual({
            where,
            error: true,
            description: 'string',
          });
        } else {
          expect({ where, keys: Object.keys(example ?? {}), fields: Object.keys(example?.error ?? {}).sort() }).toEqual({
            where,
            keys: ['error'],
            fields: expect.arrayContaining(['code', 'message', 'request_id']),
          });
          expect({ where, code: CODES_BY_STATUS[Number(status)]?.includes(example.error.code) }).toEqual({ where, code: true });
          expect(typeof example.error.message).toBe('string');
        }
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('answers the documented 401 and 404 examples for real: no credentials, and an id nobody has', async () => {
    const operations = operationsOf(document);
    const nobody = 'ffffffffffffffffffffffff';
    // The operation's first JSON example as its body (valid, so the id lookup is what answers), or none.
    const validBody = (op: Operation) => {
      const examples = document.paths[op.path][op.method.toLowerCase()].requestBody?.content['application/json']?.examples as
        Json | undefined;
      return examples ? { body: Object.values<Json>(examples)[0]!.value } : {};
    };
    let checked = 0;
    for (const op of operations) {
      const responses = document.paths[op.path][op.method.toLowerCase()].responses as Json;
      const ids = await pathIds(t, tenant, op.method, op.path);
      const documented401 = responses['401']?.content?.['application/json']?.example?.error?.code;
      if (documented401 && op.surface !== 'token') {
        const res = await t.http.request(op.method, fillPath(op.path, ids), validBody(op));
        expect({ op: op.key, status: res.status, code: res.body?.error?.code }).toEqual({ op: op.key, status: 401, code: documented401 });
        checked += 1;
      }
      const idParams = op.parameters.filter((p) => p.in === 'path' && p.schema.pattern?.includes('24'));
      if (responses['404'] && idParams.length > 0) {
        const missing = Object.fromEntries(idParams.map((p) => [p.name, nobody]));
        const res = await t.http.request(op.method, fillPath(op.path, { ...ids, ...missing }), {
          headers: credentialsOf(op.surface, tenant),
          ...validBody(op),
        });
        expect({ op: op.key, status: res.status }).toEqual({ op: op.key, status: 404 });
        expect(CODES_BY_STATUS[404]).toContain(res.body.error.code);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(60);
  }, 60_000);

  it('gives every operation a summary and a description, and describes every parameter and schema field', () => {
    const missing: string[] = [];
    for (const { key, op } of operationObjects(document)) {
      if (!op.summary) missing.push(`${key}: summary`);
      if (!op.description) missing.push(`${key}: description`);
      for (const parameter of op.parameters ?? []) if (!parameter.description) missing.push(`${key}: parameter ${parameter.name}`);
    }
    for (const [name, schema] of Object.entries<Json>(document.components.schemas)) {
      for (const [field, property] of Object.entries<Json>(schema.properties ?? {})) {
        // A bare $ref cannot carry a description in OpenAPI 3.0: the referenced schema describes itself.
        if (!property.description && !property.$ref && !property.allOf) missing.push(`${name}.${field}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('marks exactly the routes declared @Public() with security: [], and every other operation with a credential scheme', () => {
    const reflector = t.app.get(Reflector);
    const expected = new Map<string, boolean>();
    for (const wrapper of t.app.get(DiscoveryService).getControllers()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!controller) continue;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const isPublic = reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, controller]) ?? false;
        expected.set(`${controller.name.replace(/Controller$/, '')}_${name}`, isPublic);
      }
    }
    // Liveness is a Fastify route of its own (src/modules/health/liveness.ts), public like readiness.
    expected.set('Health_live', true);
    const documented = new Map(operationObjects(document).map(({ op }) => [op.operationId as string, op.security as Json[]]));
    expect([...documented.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [operationId, isPublic] of expected) {
      const security = documented.get(operationId)!;
      expect({ operationId, security: isPublic ? security : security.length > 0 }).toEqual({ operationId, security: isPublic ? [] : true });
    }
    expect([...expected.values()].filter(Boolean).length).toBeGreaterThanOrEqual(5);
  });

  it('documents the SSE events of the stream and the WebSocket session frames with schemas under components', () => {
    const resolvable = (ref: string) => document.components.schemas[ref.split('/').pop()!];
    const sse = document.paths['/messaging/v1/messages/stream'].post.responses['200'].content['text/event-stream'];
    expect(Object.keys(sse['x-sse-events'])).toEqual(['thread', 'step', 'delta', 'card', 'message', 'suggestions', 'done', 'error']);
    for (const schema of Object.values<Json>(sse['x-sse-events'])) if (schema.$ref) expect(resolvable(schema.$ref)).toBeDefined();
    const session = document['x-websocket']['/messaging/v1/session'];
    expect(Object.keys(session.clientFrames)).toEqual(['message', 'ping']);
    expect(Object.keys(session.serverFrames)).toEqual([
      'ready',
      'thread',
      'step',
      'delta',
      'card',
      'message',
      'suggestions',
      'done',
      'error',
      'pong',
    ]);
    for (const frame of [...Object.values<Json>(session.clientFrames), ...Object.values<Json>(session.serverFrames)]) {
      expect(resolvable(frame.$ref)).toBeDefined();
    }
    expect(resolvable(session.serverFrames.thread.$ref).properties).toEqual(
      expect.objectContaining({ type: expect.anything(), id: expect.anything(), thread_id: expect.anything() }),
    );
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });
});

describe('OpenAPI document under BASE_PATH', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BASE_PATH: '/api' });
  });
  afterAll(() => t.close());

  it('serves paths and the WebSocket route with the base path, against the serving origin', async () => {
    const document = expectStatus(await t.http.get('/api/openapi.json'), 200, 'document').body;
    expect(Object.keys(document.paths).every((path) => path.startsWith('/api/'))).toBe(true);
    expect(Object.keys(document['x-websocket'])).toEqual(['/api/messaging/v1/session']);
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    // The documented path answers there: servers "/" + path is the real URL.
    expect((await t.http.get(Object.keys(document.paths).find((path) => path.endsWith('/health'))!)).status).toBe(200);
  });
});
