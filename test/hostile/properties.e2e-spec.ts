import fc from 'fast-check';
import type { TestApp } from '../support/test-app.js';
import { report } from './support/oracles.js';
import { CONTROL, LONE_SURROGATE, NUL, operationsOf, toRaw, validRequest, type Operation } from './support/operations.js';
import { Judge } from './support/walk.js';
import { pathIds, seedTenant, startHostileApp, type Tenant } from './support/world.js';

/** Fixed, so a failure reproduces; HOSTILE_SEED explores other inputs. */
const SEED = Number(process.env.HOSTILE_PROPERTY_SEED ?? 1313);
const RUNS = Number(process.env.HOSTILE_PROPERTY_RUNS ?? 60);

/** Any UTF-16 code units, lone surrogates and NUL included, mixed with known troublemakers. */
const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 24 }).map((units) => String.fromCharCode(...units)),
  fc.constantFrom(
    NUL,
    LONE_SURROGATE,
    '\udc00',
    CONTROL,
    '\ufeff',
    '%zz',
    "'; DROP TABLE projects; --",
    '<script>alert(1)</script>',
    '\\u0000',
    '${7*7}',
    'ok',
  ),
);

/** JSON-ish values (what a parser could hand over) built from hostile strings, as keys too. */
const { jsonish } = fc.letrec<{ jsonish: unknown }>((tie) => ({
  jsonish: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('jsonish'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('jsonish'), { maxKeys: 4 }),
  ),
}));
const jsonObject = fc.dictionary(hostileString, jsonish, { maxKeys: 5 });

const LONE_SURROGATE_CHAR = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorableText = (text: string) => text.includes('\u0000') || LONE_SURROGATE_CHAR.test(text);
/** True when a string anywhere in `value` (keys included) is one PostgreSQL cannot store: NUL or a lone surrogate. */
function unstorable(value: unknown): boolean {
  if (typeof value === 'string') return unstorableText(value);
  if (Array.isArray(value)) return value.some(unstorable);
  if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => unstorableText(k) || unstorable(v));
  return false;
}

interface Route {
  key: string;
  /** Structured bodies: the route's own fields with hostile values. */
  body: fc.Arbitrary<Record<string, unknown>>;
  /** Top-level fields the route reads; others are refused (422) unless `ignoresUnknown`. */
  fields: string[];
  ignoresUnknown?: boolean;
  /** No generated body can succeed (it needs a secret the generator does not know). */
  alwaysRefused?: boolean;
}

const ROUTES: Route[] = [
  { key: 'POST /management/v1/projects', fields: ['name'], body: fc.record({ name: hostileString }, { requiredKeys: [] }) },
  {
    key: 'POST /messaging/v1/messages',
    fields: ['text', 'user_id', 'thread_id', 'image_url', 'agent_variables', 'runtime_version', 'include_trace'],
    body: fc.record(
      {
        text: hostileString,
        user_id: hostileString,
        agent_variables: fc.record({ static: jsonObject, dynamic: jsonObject }, { requiredKeys: [] }),
        include_trace: fc.boolean(),
      },
      { requiredKeys: ['user_id'] },
    ),
  },
  {
    key: 'POST /management/v1/agents/{agentId}/versions/{versionId}/push',
    fields: ['bundle', 'message'],
    body: fc.record(
      {
        bundle: fc.record(
          {
            schema_version: fc.constantFrom(1, 2, '1'),
            name: hostileString,
            persona: hostileString,
            welcome_message: hostileString,
            guardrails: fc.array(
              fc.record({
                code: hostileString,
                patterns: fc.array(fc.oneof(hostileString, fc.constantFrom('(a+)+$', '(a|a)*b', '(?=x)', '\\1', '[', '(?<n>a)\\k<n>')), {
                  maxLength: 3,
                }),
                message: hostileString,
              }),
              { maxLength: 2 },
            ),
            collections: fc.dictionary(hostileString, fc.array(jsonObject, { maxLength: 3 }), { maxKeys: 2 }),
          },
          { requiredKeys: ['schema_version', 'name'] },
        ),
        message: hostileString,
      },
      { requiredKeys: ['bundle'] },
    ),
  },
  {
    key: 'PUT /management/v1/agents/{agentId}/secrets/{name}',
    fields: ['value'],
    body: fc.record({ value: fc.oneof(hostileString, jsonish) }, { requiredKeys: [] }),
  },
  {
    key: 'POST /mcp',
    fields: ['jsonrpc', 'id', 'method', 'params', 'result', 'error'],
    body: fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), hostileString),
        id: fc.oneof(fc.integer(), hostileString, jsonish),
        method: fc.oneof(fc.constantFrom('initialize', 'ping', 'tools/list', 'tools/call'), hostileString),
        params: fc.oneof(
          jsonObject,
          fc.record({ name: fc.constantFrom('send_message'), arguments: fc.record({ text: hostileString, thread_id: hostileString }) }),
        ),
      },
      { requiredKeys: [] },
    ),
  },
  {
    key: 'POST /messaging/v1/events',
    fields: ['text', 'agent_variables', 'thread_id'],
    ignoresUnknown: true,
    body: fc.record({ text: hostileString, agent_variables: jsonObject, thread_id: hostileString }, { requiredKeys: [] }),
  },
  {
    key: 'POST /management/v1/auth/token',
    fields: ['grant_type', 'publishable_key', 'username', 'password', 'agent_id'],
    ignoresUnknown: true,
    alwaysRefused: true,
    body: fc.record(
      {
        grant_type: fc.oneof(fc.constantFrom('publishable_key', 'password'), hostileString),
        publishable_key: hostileString,
        username: hostileString,
        password: hostileString,
      },
      { requiredKeys: [] },
    ),
  },
];

describe('hostile input: property-based bodies (fast-check, fixed seed)', () => {
  let t: TestApp;
  let close: () => Promise<void>;
  let tenant: Tenant;
  let operations: Operation[];

  beforeAll(async () => {
    ({ t, close } = await startHostileApp());
    tenant = await seedTenant(t, 'props');
    operations = operationsOf((await t.http.get('/openapi.json')).body);
  }, 60_000);
  afterAll(() => close());

  it('answers arbitrary bodies on representative routes without 5xx, in the envelope, refusing NUL and lone surrogates, changing nothing when refusing', async () => {
    const judge = new Judge(t, 'properties');
    for (const [index, route] of ROUTES.entries()) {
      const op = operations.find((o) => o.key === route.key)!;
      const ids = await pathIds(t, tenant, op.method, op.path);
      judge.wrote();
      const structured = fc.sample(route.body, { seed: SEED + index, numRuns: RUNS });
      const anyObject = fc.sample(jsonObject, { seed: SEED + 100 + index, numRuns: RUNS / 2 });
      const rawText = fc.sample(fc.oneof(fc.string({ maxLength: 60 }), fc.json()), { seed: SEED + 200 + index, numRuns: RUNS / 3 });
      const cases: Array<[string, string]> = [
        ...structured.map((b) => ['structured', JSON.stringify(b)] as [string, string]),
        ...anyObject.map((b) => ['any object', JSON.stringify(b)] as [string, string]),
        ...rawText.map((s) => ['raw text', s] as [string, string]),
      ];
      for (const [kind, body] of cases) {
        const parts = validRequest(op, tenant, ids);
        const mustRefuse = route.alwaysRefused || mustBeRefused(route, body);
        await judge.judge(op, parts, `${kind}: ${body.length > 200 ? `${body.slice(0, 200)}…` : body}`, toRaw(parts, { body }), {
          reject: mustRefuse,
          oauth: op.surface === 'token',
        });
      }
    }
    report(judge.oracle);
    if (judge.oracle.violations.length > 0) throw new Error(judge.oracle.summary(60));
  }, 120_000);
});

/** A body must be refused when it is not a JSON object, names a field the route refuses, or carries an unstorable string in a field the route reads. */
function mustBeRefused(route: Route, body: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return true;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return body.trim() !== '';
  const keys = Object.keys(value);
  if (!route.ignoresUnknown && keys.some((k) => !route.fields.includes(k))) return true;
  return keys.some((k) => route.fields.includes(k) && unstorable((value as Record<string, unknown>)[k]));
}
