import { randomBytes } from 'node:crypto';
import { signTwilioRequest } from '../../support/fake-twilio-server.js';
import type { Expectation, RawRequest } from './oracles.js';
import { DEFAULT_SMS, END_USER_PHONE, fillPath, PUBLIC_BASE, type Tenant } from './world.js';

/** A JSON-schema fragment of the served OpenAPI document, with `$ref`s resolved. */
export interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minLength?: number;
  maxItems?: number;
  nullable?: boolean;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  /** A value of one of these (a JSON-RPC id: string or integer): no single wrong type. */
  oneOf?: Schema[];
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}

/** Which credential a route takes. */
/** `operator`: management routes for organization users only (login sessions: the handoff's operator actions). */
export type Surface = 'management' | 'operator' | 'messaging' | 'agentKey' | 'token' | 'providerWebhook' | 'public';

export interface Operation {
  key: string;
  method: string;
  path: string;
  surface: Surface;
  parameters: Parameter[];
  /** Content types of the request body, if it has one. */
  bodyTypes: string[];
  bodySchema?: Schema;
}

/** Every operation of the served document (all paths × methods). */
export function operationsOf(document: any): Operation[] {
  const resolve = (schema: any): Schema => {
    if (!schema) return {};
    if (schema.$ref) return resolve(document.components.schemas[schema.$ref.split('/').pop()]);
    const out: any = { ...schema };
    if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolve(v)]));
    if (schema.items) out.items = resolve(schema.items);
    return out;
  };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<any>(document.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      const schemes = new Set<string>((op.security ?? []).flatMap((s: Record<string, unknown>) => Object.keys(s)));
      const bodyTypes = Object.keys(op.requestBody?.content ?? {});
      const surface: Surface = schemes.has('organization-api-key')
        ? 'management'
        : schemes.has('bearer')
          ? path.startsWith('/management/')
            ? 'operator'
            : 'messaging'
          : schemes.has('agent-api-key')
            ? 'agentKey'
            : path.endsWith('/auth/token')
              ? 'token'
              : /\/channels\/\{channel\}\/(inbound|status)$/.test(path)
                ? 'providerWebhook'
                : 'public';
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        surface,
        parameters: (op.parameters ?? []).map((p: any) => ({ ...p, schema: resolve(p.schema) })),
        bodyTypes,
        bodySchema: bodyTypes.length > 0 ? resolve(op.requestBody.content[bodyTypes[0]!].schema) : undefined,
      });
    }
  }
  return operations;
}

/** A request of one operation in parts, so a mutation can change one part and keep the rest valid. */
export interface RequestParts {
  op: Operation;
  ids: Record<string, string>;
  /** Query pairs, already percent-encoded. */
  query: string[];
  headers: Record<string, string>;
  json?: Record<string, unknown>;
  form?: Record<string, string>;
  /** multipart/form-data parts (the knowledge upload). */
  multipart?: MultipartPart[];
  /** The provider auth token that signs provider-webhook requests. */
  signingToken?: string;
}

export function credentialsOf(surface: Surface, tenant: Tenant): Record<string, string> {
  switch (surface) {
    case 'management':
      return { ...tenant.org.headers };
    case 'messaging':
      return { ...tenant.bearer };
    case 'operator':
      return { ...tenant.operatorBearer };
    case 'agentKey':
      return { ...tenant.agentKeyHeaders };
    case 'token':
    case 'providerWebhook':
    case 'public':
      return {};
  }
}

export interface MultipartPart {
  name: string;
  /** Present for a file part. */
  filename?: string;
  type?: string;
  content: string | Uint8Array;
}

const MULTIPART_BOUNDARY = 'hostile-walk-boundary';

function multipartBody(parts: MultipartPart[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${MULTIPART_BOUNDARY}\r\ncontent-disposition: ${disposition}\r\n`));
    if (p.type) chunks.push(Buffer.from(`content-type: ${p.type}\r\n`));
    chunks.push(Buffer.from('\r\n'), Buffer.from(p.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${MULTIPART_BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

type ValidBody = { json?: Record<string, unknown>; form?: Record<string, string>; multipart?: MultipartPart[] };

/** The body of a valid request of each operation that takes one, for `tenant`. */
function validBody(op: Operation, tenant: Tenant): ValidBody {
  const sid = () => `SM${randomBytes(16).toString('hex')}`;
  const bodies: Record<string, () => ValidBody> = {
    'POST /management/v1/agents/{agentId}/versions/{versionId}/knowledge': () => ({
      multipart: [
        { name: 'files', filename: 'walk.md', type: 'text/markdown', content: '# Walk\n\nThe hostile walk uploads this.' },
        { name: 'message', content: 'walk upload' },
      ],
    }),
    'POST /management/v1/agents/{agentId}/versions/{versionId}/knowledge/search': () => ({ json: { query: 'what does the walk upload?' } }),
    'POST /management/v1/auth/token': () => ({ json: { grant_type: 'publishable_key', publishable_key: tenant.publishableKey } }),
    'POST /management/v1/projects': () => ({ json: { name: 'Hostile walk project' } }),
    'POST /management/v1/agents/{agentId}/versions': () => ({ json: { source: 'empty', label: 'walk', tags: ['walk'], notes: 'walk' } }),
    'PATCH /management/v1/agents/{agentId}/versions/{versionId}': () => ({ json: { label: 'walked', tags: ['a'], notes: 'n' } }),
    'POST /management/v1/agents/{agentId}/versions/{versionId}/push': () => ({
      json: { bundle: { schema_version: 1, name: 'Walked bundle', welcome_message: 'hello' }, message: 'walk' },
    }),
    'POST /management/v1/projects/{projectId}/agents': () => ({ json: { name: 'Walk agent', description: 'd', runtime: 'v1' } }),
    'PATCH /management/v1/agents/{agentId}': () => ({ json: { description: 'walked' } }),
    'POST /management/v1/agents/{agentId}/publishable-keys': () => ({
      json: { allowed_origins: ['https://shop.example'], allowed_ip_ranges: ['203.0.113.0/24'] },
    }),
    'POST /messaging/v1/messages': () => ({
      json: {
        text: 'show me jackets',
        user_id: 'walker',
        thread_id: tenant.threadId,
        agent_variables: { static: { store: 's1' }, dynamic: { page: 'p' } },
        include_trace: true,
      },
    }),
    'POST /messaging/v1/messages/stream': () => ({
      json: { text: 'show me jackets', user_id: 'walker', thread_id: tenant.threadId, include_trace: false },
    }),
    'POST /messaging/v1/threads/{threadId}/rerun': () => ({ json: { include_trace: true } }),
    'POST /messaging/v1/followup-suggestions': () => ({ json: { thread_id: tenant.threadId, text: 'jackets', limit: 2 } }),
    'POST /messaging/v1/events': () => ({
      json: { text: 'order shipped', thread_id: 'walk-conversation', agent_variables: { order: 1042 } },
    }),
    'POST /management/v1/senders': () => ({
      json: {
        channel: 'sms',
        phone_number: `+1555${String(1_000_000 + (randomBytes(4).readUInt32BE() % 9_000_000))}`,
        display_name: 'Walk line',
      },
    }),
    'POST /messaging/v1/channels/{channel}/threads': () => ({
      json: { user_id: 'walk-user', phone_number: END_USER_PHONE, agent_display_name: 'Walker' },
    }),
    'POST /messaging/v1/channels/{channel}/inbound': () => ({
      form: { MessageSid: sid(), From: END_USER_PHONE, To: DEFAULT_SMS, Body: 'hello there' },
    }),
    'POST /messaging/v1/channels/{channel}/status': () => ({ form: { MessageSid: sid(), MessageStatus: 'delivered', ErrorCode: '30003' } }),
    'PATCH /management/v1/threads/{threadId}': () => ({ json: { title: 'Walked title' } }),
    // pathIds gives each handoff operation a fresh thread in the state it starts from (world.ts, handoffStart).
    'POST /messaging/v1/threads/{threadId}/handoff': () => ({ json: { reason: 'walk asks for a human' } }),
    'POST /management/v1/threads/{threadId}/takeover': () => ({ json: { reason: 'walk takes over' } }),
    'POST /management/v1/threads/{threadId}/messages': () => ({ json: { text: 'walk operator message' } }),
    // pathIds makes the published version live again first, so it is the live arm whatever the walk published before.
    'PUT /management/v1/agents/{agentId}/traffic': () => ({
      json: {
        splits: [
          { version_id: tenant.publishedVersionId, percent: 90 },
          { version_id: tenant.candidateVersionId, percent: 10 },
        ],
      },
    }),
    'POST /management/v1/projects/{projectId}/webhooks': () => ({
      json: { url: 'https://hooks.example.com/walk', events: ['turn.completed', 'event.failed'], description: 'walk', enabled: true },
    }),
    'PATCH /management/v1/projects/{projectId}/webhooks/{webhookId}': () => ({
      json: { description: 'walked', events: ['turn.completed'] },
    }),
    'POST /management/v1/projects/{projectId}/webhooks/{webhookId}/rotate-secret': () => ({ json: { overlap_seconds: 60 } }),
    'POST /management/v1/agents/{agentId}/test-cases': () => ({
      json: {
        name: 'Walk case',
        turns: [{ text: 'show me jackets', agent_variables: { static: { store: 's1' } }, expect: { contains: ['jacket'] } }],
      },
    }),
    'POST /management/v1/agents/{agentId}/test-cases/import': () => ({
      json: { test_cases: [{ name: 'Walk import', turns: [{ text: 'show me jackets', expect: { declines: false } }] }] },
    }),
    'POST /management/v1/agents/{agentId}/test-cases/from-thread': () => ({
      json: { thread_id: tenant.threadId, name: 'Walk thread case' },
    }),
    'PATCH /management/v1/agents/{agentId}/test-cases/{testCaseId}': () => ({ json: { name: 'Walked case' } }),
    'POST /messaging/v1/messages/{messageId}/feedback': () => ({ json: { rating: 'up', comment: 'walk' } }),
    'PATCH /management/v1/projects/{projectId}': () => ({ json: { name: 'Walked project', thread_retention_days: 3650 } }),
    'PUT /management/v1/agents/{agentId}/secrets/{name}': () => ({ json: { value: 'walk-secret-value' } }),
    'POST /mcp': () => ({
      json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'send_message', arguments: { text: 'show me jackets' } } },
    }),
  };
  const body = bodies[op.key];
  if (op.bodyTypes.length > 0 && !body) throw new Error(`no valid body for ${op.key}: add one`);
  return body ? body() : {};
}

export function validRequest(op: Operation, tenant: Tenant, ids: Record<string, string>, signingToken?: string): RequestParts {
  return { op, ids, query: validQuery(op), headers: credentialsOf(op.surface, tenant), signingToken, ...validBody(op, tenant) };
}

/** Required query parameters of a valid request, already percent-encoded. */
function validQuery(op: Operation): string[] {
  const queries: Record<string, string[]> = {
    // An end user without threads: the erasure answers 200 with zero counts and the walk's threads stay.
    'DELETE /management/v1/threads': ['user_id=walk-nobody'],
  };
  return queries[op.key] ?? [];
}

/** Serializes parts; provider webhooks are signed the way the provider signs them (over the public URL). */
export function toRaw(
  parts: RequestParts,
  override: { path?: string; body?: string | Uint8Array; contentType?: string | null } = {},
): RawRequest {
  const path = override.path ?? fillPath(parts.op.path, parts.ids);
  const url = parts.query.length > 0 ? `${path}?${parts.query.join('&')}` : path;
  const headers = { ...parts.headers };
  let body = override.body;
  let contentType: string | undefined;
  if (parts.json !== undefined) {
    body ??= JSON.stringify(parts.json);
    contentType = 'application/json';
  } else if (parts.multipart !== undefined) {
    body ??= multipartBody(parts.multipart);
    contentType = `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`;
  } else if (parts.form !== undefined) {
    body ??= new URLSearchParams(parts.form).toString();
    contentType = 'application/x-www-form-urlencoded';
    headers['x-twilio-signature'] = signTwilioRequest(parts.signingToken ?? '', `${PUBLIC_BASE}${url}`, parts.form);
  }
  if (override.contentType !== undefined) contentType = override.contentType ?? undefined;
  if (contentType && body !== undefined) headers['content-type'] = contentType;
  return { method: parts.op.method, url, headers, body };
}

export interface Mutation {
  /** Class of the mutation (for the tally and deterministic sampling) and its specific name. */
  kind: string;
  name: string;
  expect: Expectation;
  build(parts: RequestParts): RawRequest;
}

export const NUL = 'a\u0000b';
export const LONE_SURROGATE = 'a\ud800b';
export const CONTROL = 'a\u0001\u0007\u001b[31m\u007f\u0085b';
export const HUGE = 'x'.repeat(100_000);
export const DEEP_ARRAY = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
const LIMIT = 1024 * 1024;

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const hex24 = () => randomBytes(12).toString('hex');

/** Path ids that name nothing, or cannot be ids at all: each must be refused (404/422), in the envelope. */
const PATH_VALUES: Array<[string, string]> = [
  ['short', 'abc'],
  ['non-hex', 'z'.repeat(24)],
  ['unicode', encodeURIComponent('é'.repeat(24))],
  ['nul', `${'0'.repeat(23)}%00`],
  ['200 chars', 'f'.repeat(200)],
  ['5000 chars', 'a'.repeat(5000)],
  ['bad escape %zz', '%zz'],
  ['bad utf-8 escape', '%C0%AF%ED%A0%80'],
  ['dot segments', '..%2f..%2fhealth'],
  ['unknown id', ''],
];

/** Forged `page[after]`/`page[before]` cursors (the codec is base64url of [sort_by, order, value, id]). */
function forgedCursors(): Array<[string, string]> {
  const id = hex24();
  return [
    ['not base64', '!!!%00!!!'],
    ['base64 of a number', b64(12345)],
    ['base64 of an object', b64({ a: 1 })],
    ['bad date', b64(['created_at', 'desc', 'not-a-date', id])],
    ['impossible date', b64(['created_at', 'desc', '2024-02-30T00:00:00Z', id])],
    ['year 0000', b64(['created_at', 'desc', '0000-01-01T00:00:00Z', id])],
    ['offset +99:00', b64(['created_at', 'desc', '2024-01-01T00:00:00+99:00', id])],
    ['number where a date belongs', b64(['created_at', 'desc', 5, id])],
    ['object value', b64(['created_at', 'desc', { $gt: 1 }, id])],
    ['NUL id', b64(['created_at', 'desc', '2024-01-01T00:00:00Z', 'a\u0000b'])],
    ['lone surrogate value', b64(['created_at', 'desc', 'a\ud800b', id])],
    ['5000 chars', 'A'.repeat(5000)],
  ];
}

const enc = (name: string) => name.replace(/\[/g, '%5B').replace(/\]/g, '%5D');

function queryMutations(param: Parameter): Array<Omit<Mutation, 'build'> & { values: string[] }> {
  const s = param.schema;
  const itemSchema = s.type === 'array' ? (s.items ?? {}) : s;
  const out: Array<Omit<Mutation, 'build'> & { values: string[] }> = [];
  const add = (kind: string, name: string, values: string[], expect: Expectation) =>
    out.push({ kind, name: `${param.name}=${name}`, values, expect });
  const reject = { reject: true };
  if (/^page\[(after|before)\]$/.test(param.name)) {
    for (const [name, value] of forgedCursors()) add('forged cursor', name, [encodeURIComponent(value)], reject);
  }
  if (itemSchema.type === 'integer' || itemSchema.type === 'number') {
    const values = ['abc', '1.5', '1e400', '99999999999999999999', '-1'];
    if (itemSchema.minimum !== undefined) values.push(String(itemSchema.minimum - 1));
    if (itemSchema.maximum !== undefined) values.push(String(itemSchema.maximum + 1));
    for (const v of new Set(values)) add('out of range / wrong type', v, [v], reject);
  }
  if (itemSchema.type === 'boolean') for (const v of ['maybe', '2']) add('wrong type', v, [v], reject);
  if (itemSchema.enum) for (const v of ['bogus', 'created_at%3BDROP']) add('not in enum', v, [v], reject);
  if (itemSchema.format === 'date-time') {
    for (const v of [
      '2024-02-30T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '2024-01-01T00:00:00%2B99:00',
      '2024-13-01T00:00:00Z',
      'yesterday',
      '2024-01-01T25:61:00Z',
    ]) {
      add('impossible date-time', v, [v], reject);
    }
  }
  if (itemSchema.pattern) add('pattern mismatch', 'zz', ['zz'], reject);
  if (s.type === 'array' && s.maxItems !== undefined) {
    const ok = itemSchema.format === 'date-time' ? '2024-01-01T00:00:00Z' : 'x';
    add(
      'too many items',
      `${s.maxItems + 1} values`,
      Array.from({ length: s.maxItems + 1 }, () => ok),
      reject,
    );
  }
  add('hostile string', 'NUL', ['a%00b'], reject);
  add('hostile string', 'encoded surrogate (invalid UTF-8)', ['a%ED%A0%80b'], {});
  add('hostile string', 'control characters', ['a%01%07%1B%7Fb'], {});
  add('hostile string', '100 kB', ['x'.repeat(100_000)], {});
  add('hostile string', 'bad escape', ['%zz'], {});
  return out;
}

/** Strings whose acceptance by a field is a contract violation: NUL and lone surrogates everywhere. */
function fieldMutations(
  name: string,
  schema: Schema,
  messageText: boolean,
): Array<{ kind: string; name: string; value: unknown; expect: Expectation }> {
  const out: Array<{ kind: string; name: string; value: unknown; expect: Expectation }> = [];
  const reject = { reject: true };
  const wrong: Record<string, unknown[]> = {
    string: [123, true, {}, []],
    number: ['abc', {}, true],
    integer: ['abc', 1.5, {}],
    boolean: ['yes', 1],
    array: ['x', {}],
    object: ['x', 5, []],
  };
  for (const value of schema.oneOf ? [] : (wrong[schema.type ?? 'object'] ?? [])) {
    out.push({ kind: 'wrong type', name: `${name}=${JSON.stringify(value)}`, value, expect: reject });
  }
  if (schema.type === 'array' && schema.items?.type === 'string') {
    out.push({ kind: 'wrong type', name: `${name}=[123]`, value: [123], expect: reject });
    out.push({ kind: 'hostile string', name: `${name}=[NUL]`, value: [NUL], expect: reject });
    out.push({ kind: 'hostile string', name: `${name}=[lone surrogate]`, value: [LONE_SURROGATE], expect: reject });
    out.push({ kind: 'hostile string', name: `${name}=[100 kB]`, value: [HUGE], expect: reject });
  }
  if (schema.type === 'string') {
    const bounded = schema.maxLength !== undefined || schema.enum !== undefined || schema.pattern !== undefined || messageText;
    const constrained = schema.enum !== undefined || schema.pattern !== undefined;
    out.push({ kind: 'hostile string', name: `${name}=NUL`, value: NUL, expect: reject });
    out.push({ kind: 'hostile string', name: `${name}=lone surrogate`, value: LONE_SURROGATE, expect: reject });
    out.push({ kind: 'hostile string', name: `${name}=control characters`, value: CONTROL, expect: constrained ? reject : {} });
    out.push({ kind: 'hostile string', name: `${name}=100 kB`, value: HUGE, expect: bounded ? reject : {} });
  }
  if (schema.type === 'object' || (schema.type === undefined && schema.additionalProperties)) {
    out.push({ kind: 'hostile string', name: `${name}={k: NUL}`, value: { k: NUL }, expect: reject });
    out.push({ kind: 'hostile string', name: `${name}={k: lone surrogate}`, value: { k: { deeper: [LONE_SURROGATE] } }, expect: reject });
    out.push({ kind: 'hostile string', name: `${name}={NUL key}`, value: { 'a\u0000': 1 }, expect: reject });
    out.push({ kind: 'hostile string', name: `${name}={lone surrogate key}`, value: { '\udc00': 1 }, expect: reject });
  }
  return out;
}

/** The fields of each body (from its schema), including object-valued ones nested one level (agent_variables.static). */
function bodyFields(schema: Schema | undefined): Array<[string[], Schema]> {
  const fields: Array<[string[], Schema]> = [];
  for (const [name, field] of Object.entries(schema?.properties ?? {})) {
    fields.push([[name], field]);
    for (const [inner, innerSchema] of Object.entries(field.properties ?? {})) fields.push([[name, inner], innerSchema]);
  }
  return fields;
}

function withField(json: Record<string, unknown> | undefined, path: string[], value: unknown): Record<string, unknown> {
  const copy: Record<string, any> = structuredClone(json ?? {});
  let target = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof target[key] !== 'object' || target[key] === null || Array.isArray(target[key])) target[key] = {};
    target = target[key];
  }
  target[path.at(-1)!] = value;
  return copy;
}

/** Every mutation of `op` (before sampling). */
export function mutationsOf(op: Operation): Mutation[] {
  const mutations: Mutation[] = [];
  const oauth = op.surface === 'token';
  const reject: Expectation = { reject: true, oauth };
  const any: Expectation = { oauth };

  for (const param of op.parameters.filter((p) => p.in === 'path')) {
    // A name, not an id (an agent secret's): a value its own pattern accepts names a resource a PUT may have created.
    const pattern = param.schema.pattern;
    const isName = pattern !== undefined && !pattern.includes('{24}');
    for (const [name, value] of PATH_VALUES) {
      const raw = value === '' ? hex24() : value;
      mutations.push({
        kind: 'path id',
        name: `${param.name}: ${name}`,
        expect: isName && new RegExp(pattern).test(raw) ? any : reject,
        build: (parts) => {
          const path = op.path.replace(/\{(\w+)\}/g, (_, n: string) => (n === param.name ? raw : encodeURIComponent(parts.ids[n]!)));
          return toRaw(parts, { path });
        },
      });
    }
  }

  for (const param of op.parameters.filter((p) => p.in === 'query')) {
    for (const m of queryMutations(param)) {
      mutations.push({
        kind: m.kind,
        name: m.name,
        expect: { ...m.expect, oauth },
        build: (parts) => toRaw({ ...parts, query: [...parts.query, ...m.values.map((v) => `${enc(param.name)}=${v}`)] }),
      });
    }
  }
  mutations.push({
    kind: 'query',
    name: 'unknown query parameter with NUL',
    expect: any,
    build: (parts) => toRaw({ ...parts, query: [...parts.query, 'zz%00=a%00b'] }),
  });
  mutations.push({
    kind: 'query',
    name: 'bad escape in query',
    expect: any,
    build: (parts) => toRaw({ ...parts, query: [...parts.query, 'q=%zz%'] }),
  });

  if (op.surface !== 'public' && op.surface !== 'token' && op.surface !== 'providerWebhook') {
    mutations.push({
      kind: 'credentials',
      name: 'no credentials',
      expect: { ...reject, statuses: [401] },
      build: (parts) => toRaw({ ...parts, headers: {} }),
    });
    const forged: Record<string, string> =
      op.surface === 'management'
        ? { 'x-organization-api-key': 'oak_forged' }
        : op.surface === 'agentKey'
          ? { 'x-agent-api-key': 'agk_forged' }
          : { authorization: 'Bearer e30.e30.e30' };
    mutations.push({
      kind: 'credentials',
      name: 'forged credential',
      expect: { ...reject, statuses: [401] },
      build: (parts) => toRaw({ ...parts, headers: forged }),
    });
    mutations.push({
      kind: 'credentials',
      name: 'credential with NUL-like bytes',
      expect: { ...reject, statuses: [401] },
      build: (parts) => toRaw({ ...parts, headers: Object.fromEntries(Object.keys(forged).map((k) => [k, `${forged[k]}\u00ff\u0080`])) }),
    });
  }
  mutations.push({
    kind: 'headers',
    name: 'oversized header (20 kB)',
    expect: any,
    build: (parts) => toRaw({ ...parts, headers: { ...parts.headers, 'x-pad': 'p'.repeat(20_000) } }),
  });

  if (op.bodyTypes.includes('application/json')) mutations.push(...jsonBodyMutations(op, reject, any));
  if (op.bodyTypes.includes('multipart/form-data')) mutations.push(...multipartBodyMutations(reject));
  if (op.surface === 'providerWebhook') mutations.push(...formBodyMutations(op));
  return mutations;
}

function jsonBodyMutations(op: Operation, reject: Expectation, any: Expectation): Mutation[] {
  const out: Mutation[] = [];
  const oauth = op.surface === 'token';
  const hasRequired = (op.bodySchema?.required ?? []).length > 0;
  const raw = (kind: string, name: string, body: string | Uint8Array, expect: Expectation, contentType?: string | null): Mutation => ({
    kind,
    name,
    expect,
    build: (parts) => toRaw(parts, { body, contentType }),
  });
  out.push(raw('malformed JSON', 'truncated object', '{"a":', reject));
  out.push(raw('malformed JSON', 'trailing garbage', '{} {}', reject));
  out.push(
    raw(
      'malformed JSON',
      'invalid UTF-8 bytes',
      new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
      reject,
      'application/json',
    ),
  );
  out.push(raw('deep nesting', '10,000-level array (20 kB)', DEEP_ARRAY, reject));
  out.push(raw('deep nesting', '10,000-level object', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`, reject));
  out.push({
    kind: 'deep nesting',
    name: '10,000 levels inside a field',
    expect: reject,
    build: (parts) => {
      const field = Object.keys(op.bodySchema?.properties ?? { x: 1 })[0]!;
      const rest = JSON.stringify({ ...parts.json, [field]: undefined }).slice(1);
      return toRaw(parts, { body: `{"${field}":${DEEP_ARRAY}${rest === '}' ? '}' : `,${rest}`}` });
    },
  });
  out.push(raw('non-object body', 'array', '[]', reject));
  out.push(raw('non-object body', 'number', '5', reject));
  out.push(raw('non-object body', 'string', '"s"', reject));
  if (hasRequired) {
    out.push(raw('non-object body', 'null', 'null', reject));
    out.push(raw('missing fields', 'empty object', '{}', reject));
  }
  out.push({
    kind: 'size',
    name: 'body at the 1 MiB limit',
    expect: any,
    build: (parts) => toRaw(parts, { body: padTo(parts.json ?? {}, LIMIT) }),
  });
  out.push({
    kind: 'size',
    name: 'body 1 byte over the 1 MiB limit',
    expect: reject,
    build: (parts) => toRaw(parts, { body: padTo(parts.json ?? {}, LIMIT + 1) }),
  });
  out.push({
    kind: 'size',
    name: 'body of 3 MiB',
    expect: reject,
    build: (parts) => toRaw(parts, { body: padTo(parts.json ?? {}, 3 * LIMIT) }),
  });
  out.push({ kind: 'content type', name: 'text/plain', expect: reject, build: (parts) => toRaw(parts, { contentType: 'text/plain' }) });
  out.push({
    kind: 'content type',
    name: 'none (bytes without content-type)',
    expect: reject,
    build: (parts) => toRaw(parts, { body: Buffer.from(JSON.stringify(parts.json ?? {})), contentType: null }),
  });
  out.push({
    kind: 'content type',
    name: 'application/xml',
    expect: reject,
    build: (parts) => toRaw(parts, { contentType: 'application/xml' }),
  });
  out.push({
    kind: 'content type',
    name: 'form-urlencoded (JSON-only route)',
    expect: oauth ? any : reject,
    build: (parts) =>
      toRaw(parts, {
        body: new URLSearchParams(
          Object.entries(parts.json ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
        ).toString(),
        contentType: 'application/x-www-form-urlencoded',
      }),
  });
  // The events webhook ignores unknown top-level fields (spec Events rule 2); OAuth servers ignore unknown parameters.
  const ignoresUnknown = op.surface === 'agentKey' || oauth;
  out.push({
    kind: 'unknown field',
    name: 'unknown top-level field',
    expect: ignoresUnknown ? any : reject,
    build: (parts) => toRaw({ ...parts, json: { ...parts.json, hostile_unknown: 1 } }),
  });
  out.push({
    kind: 'unknown field',
    name: '__proto__ field',
    expect: ignoresUnknown ? any : reject,
    build: (parts) => toRaw(parts, { body: JSON.stringify(parts.json ?? {}).replace(/^\{/, '{"__proto__":{"polluted":true},') }),
  });
  if (/\/messaging\/v1\/(messages(\/stream)?|threads\/\{threadId\}\/rerun)$/.test(op.path)) {
    for (const value of [null, '', 'x', hex24()]) {
      out.push({
        kind: 'agent_id in body',
        name: `agent_id=${JSON.stringify(value)}`,
        expect: reject,
        build: (parts) => toRaw({ ...parts, json: { ...parts.json, agent_id: value } }),
      });
    }
  }
  for (const [path, schema] of bodyFields(op.bodySchema)) {
    const messageText = path.at(-1) === 'text' && op.surface !== 'management';
    // The publishable-key grant ignores the password grant's fields, as OAuth servers ignore parameters they do not use.
    const ignored = oauth && !['grant_type', 'publishable_key'].includes(path[0]!);
    for (const m of fieldMutations(path.join('.'), schema, messageText)) {
      out.push({
        kind: m.kind,
        name: m.name,
        expect: ignored ? { oauth } : { ...m.expect, oauth },
        build: (parts) => toRaw({ ...parts, json: withField(parts.json, path, m.value) }),
      });
    }
  }
  if (op.path.endsWith('/push')) {
    for (const [name, bundle] of bundleMutations()) {
      out.push({ kind: 'bundle', name, expect: reject, build: (parts) => toRaw({ ...parts, json: { ...parts.json, bundle } }) });
    }
  }
  return out;
}

/** Bundles a push must refuse: patterns the linear-time engine cannot take, and NUL / surrogates deep inside. */
function bundleMutations(): Array<[string, unknown]> {
  const base = { schema_version: 1, name: 'Hostile bundle' };
  return [
    ['guardrail with a backreference', { ...base, guardrails: [{ code: 'g', patterns: ['(a)\\1'], message: 'm' }] }],
    ['guardrail with a lookahead', { ...base, guardrails: [{ code: 'g', patterns: ['(?=a)a'], message: 'm' }] }],
    ['parameter pattern that does not compile', { ...base, parameters: [{ code: 'p', title: 'P', pattern: '([', type: 'number' }] }],
    ['NUL in a collection item', { ...base, collections: { products: [{ id: 'a', name: NUL }] } }],
    ['lone surrogate in persona', { ...base, persona: LONE_SURROGATE }],
    [
      '10,000-level nesting in a collection',
      JSON.parse(`{"schema_version":1,"name":"n","collections":{"p":[${'['.repeat(3_000)}${']'.repeat(3_000)}]}}`),
    ],
  ];
}

/** Uploads that must be refused whole: unusable files, stray parts, bodies that are not (well-formed) multipart. */
function multipartBodyMutations(reject: Expectation): Mutation[] {
  const file = (filename: string, content: string | Uint8Array, type = 'text/plain'): MultipartPart => ({
    name: 'files',
    filename,
    type,
    content,
  });
  const parts: Array<[string, MultipartPart[]]> = [
    ['file with NUL', [file('nul.txt', NUL)]],
    ['file with an encoded lone surrogate', [file('s.txt', new Uint8Array([0x61, 0xed, 0xa0, 0x80]))]],
    ['file of invalid UTF-8', [file('bad.txt', new Uint8Array([0xc3, 0x28]))]],
    ['empty file', [file('empty.txt', '')]],
    ['binary type', [file('tool.exe', 'MZ', 'application/octet-stream')]],
    ['file name with NUL', [file('a\u0000.md', '# A\n\na')]],
    ['file name of 5000 chars', [file(`${'n'.repeat(5000)}.md`, '# A\n\na')]],
    ['unknown field', [file('a.md', '# A\n\na'), { name: 'hostile_unknown', content: '1' }]],
    ['__proto__ field', [file('a.md', '# A\n\na'), { name: '__proto__', content: '1' }]],
    ['message with NUL', [file('a.md', '# A\n\na'), { name: 'message', content: NUL }]],
    ['message of 100 kB', [file('a.md', '# A\n\na'), { name: 'message', content: HUGE }]],
    ['no files', [{ name: 'message', content: 'm' }]],
    ['21 files', Array.from({ length: 21 }, (_, i) => file(`f${i}.txt`, 'x'))],
    ['file over 2 MiB', [file('big.txt', 'x'.repeat(2 * LIMIT + 1))]],
  ];
  const out: Mutation[] = parts.map(([name, multipart]) => ({
    kind: 'multipart',
    name,
    expect: reject,
    build: (p) => toRaw({ ...p, multipart }),
  }));
  out.push({
    kind: 'multipart',
    name: 'truncated body',
    expect: reject,
    build: (p) => toRaw(p, { body: multipartBody(p.multipart ?? []).subarray(0, 40) }),
  });
  out.push({
    kind: 'content type',
    name: 'multipart without a boundary',
    expect: reject,
    build: (p) => toRaw(p, { contentType: 'multipart/form-data' }),
  });
  out.push({
    kind: 'content type',
    name: 'JSON',
    expect: reject,
    build: (p) => toRaw(p, { body: '{"files":[]}', contentType: 'application/json' }),
  });
  out.push({ kind: 'content type', name: 'text/plain', expect: reject, build: (p) => toRaw(p, { contentType: 'text/plain' }) });
  return out;
}

function formBodyMutations(op: Operation): Mutation[] {
  const out: Mutation[] = [];
  const fields = Object.keys(op.bodySchema?.properties ?? {});
  for (const field of fields) {
    for (const [name, value] of [
      ['NUL', NUL],
      ['control characters', CONTROL],
      ['100 kB', HUGE],
      ['empty', ''],
    ] as const) {
      out.push({
        kind: 'form field',
        name: `${field}=${name} (signed)`,
        expect: {},
        build: (parts) => toRaw({ ...parts, form: { ...parts.form!, [field]: value } }),
      });
    }
  }
  out.push({
    kind: 'form field',
    name: 'unsigned',
    expect: { reject: true },
    build: (parts) => {
      const raw = toRaw(parts);
      delete raw.headers!['x-twilio-signature'];
      return raw;
    },
  });
  out.push({
    kind: 'content type',
    name: 'JSON body on a form webhook',
    expect: {},
    build: (parts) => toRaw(parts, { body: JSON.stringify(parts.form), contentType: 'application/json' }),
  });
  out.push({
    kind: 'size',
    name: 'form body over 1 MiB',
    expect: { reject: true },
    build: (parts) => toRaw({ ...parts, form: { ...parts.form!, Body: 'x'.repeat(LIMIT + 10) } }),
  });
  return out;
}

/** The valid body padded (in a string field the schema does not know) to exactly `bytes` bytes. */
function padTo(json: Record<string, unknown>, bytes: number): string {
  const start = JSON.stringify({ ...json, zz_pad: '' });
  return start.replace(/"zz_pad":""/, `"zz_pad":"${'x'.repeat(Math.max(0, bytes - Buffer.byteLength(start)))}"`);
}

/** A deterministic pseudo-random sample of at most `budget` mutations that keeps at least one of every kind. */
export function sample(mutations: Mutation[], budget: number, seed: string): Mutation[] {
  if (mutations.length <= budget) return mutations;
  const score = (m: Mutation) => {
    let h = 2166136261;
    for (const c of `${seed}|${m.kind}|${m.name}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
    return h >>> 0;
  };
  const ranked = [...mutations].sort((a, b) => score(a) - score(b));
  const kept = new Set<Mutation>();
  for (const m of ranked) if (![...kept].some((k) => k.kind === m.kind)) kept.add(m);
  for (const m of ranked) if (kept.size < budget) kept.add(m);
  return mutations.filter((m) => kept.has(m));
}
