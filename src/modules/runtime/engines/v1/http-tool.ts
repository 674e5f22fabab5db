import type { HttpTool, Scalar } from '../../../bundles/bundle.types.js';
import { placeholdersOf, TEMPLATE_PLACEHOLDER } from '../../../bundles/http-tool-template.js';
import type { CardDto } from '../../runtime.types.js';
import type { ParamValue, V1HttpCall } from '../../trace.types.js';
import { renderElement } from '../../text/jsx.js';

/*
 * HTTP tools of the v1 engine (docs/http-tools.md), the pure part: which calls a turn makes, the request each one
 * is, and how an answer becomes reply text and cards. The I/O (signing, the SSRF-guarded client) is
 * HttpToolsService's.
 */

export const HTTP_TOOL_DEFAULT_TIMEOUT_MS = 5000;
export const HTTP_TOOL_MAX_TIMEOUT_MS = 10_000;
/** Bytes of an answer read; a bigger one is a failure (`response_too_large`). */
export const HTTP_TOOL_MAX_RESPONSE_BYTES = 256 * 1024;
export const HTTP_TOOL_DEFAULT_FALLBACK = "Sorry, I couldn't look that up right now. Please try again in a moment.";

export interface CompiledHttpTool {
  def: HttpTool;
  intents: Set<string> | null;
  /** URL placeholders, then body parameters: everything the call sends, all required. */
  sends: string[];
  timeoutMs: number;
  /** Parsed pointers: field name → reference tokens. */
  fields: Array<[string, string[]]>;
  items: { pointer: string[]; fields: Array<[string, string[]]>; titleField: string; max: number } | null;
  component: string;
}

export type HttpFailureReason = V1HttpCall['failure_reason'];

/** What the I/O layer hands back for one call. */
export type HttpCallResult =
  | { ok: true; status: number; latencyMs: number; body: Buffer; truncated: boolean }
  | { ok: false; reason: Exclude<HttpFailureReason, ''>; detail: string; status: number | null; latencyMs: number | null };

/** One HTTP tool in one turn: skipped, or called with its outcome. */
export interface HttpToolRun {
  tool: CompiledHttpTool;
  ran: boolean;
  /** Why it ran or was skipped. */
  reason: string;
  triggerType: 'always' | 'intent';
  call: V1HttpCall;
  /** The reply part: the mapped message, or the fallback when the call failed. */
  text: string;
  ok: boolean;
  /** Mapped fields (the single card's entity) and item entities. */
  entity: Record<string, Scalar> | null;
  items: Array<Record<string, Scalar>>;
  title: string;
}

/** The request a tool call is: filled URL, JSON body (or none), and the parameters it carries. */
export interface HttpToolRequest {
  method: HttpTool['method'];
  url: string;
  body: string | undefined;
  paramsSent: string[];
}

export function compileHttpTool(def: HttpTool): CompiledHttpTool {
  const sends = [...new Set([...placeholdersOf(def.url), ...(def.body_params ?? [])])];
  const items = def.response.items;
  return {
    def,
    intents: def.intents?.length ? new Set(def.intents) : null,
    sends,
    timeoutMs: Math.min(Math.max(def.timeout_ms ?? HTTP_TOOL_DEFAULT_TIMEOUT_MS, 100), HTTP_TOOL_MAX_TIMEOUT_MS),
    fields: Object.entries(def.response.fields ?? {}).map(([name, pointer]) => [name, parsePointer(pointer)]),
    items: items
      ? {
          pointer: parsePointer(items.pointer),
          fields: Object.entries(items.fields).map(([name, pointer]) => [name, parsePointer(pointer)]),
          titleField: items.title_field,
          max: items.max_items ?? 5,
        }
      : null,
    component: `${def.code.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()).replace(/^./, (c) => c.toUpperCase())}Card`,
  };
}

/** RFC 6901 reference tokens of a pointer (`~1` → `/`, `~0` → `~`). */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value a pointer names in a JSON document; undefined when it names nothing. */
export function resolvePointer(doc: unknown, tokens: string[]): unknown {
  let at: unknown = doc;
  for (const token of tokens) {
    if (Array.isArray(at)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      at = at[Number(token)];
    } else if (at !== null && typeof at === 'object' && Object.hasOwn(at, token)) {
      at = (at as Record<string, unknown>)[token];
    } else return undefined;
  }
  return at;
}

/** Whether the tool runs this turn: its intents (if any) and every parameter it sends must be there. */
export function httpToolTrigger(
  tool: CompiledHttpTool,
  intent: string | null,
  params: Map<string, ParamValue>,
): { run: true; reason: string } | { run: false; reason: string } {
  if (tool.intents && (!intent || !tool.intents.has(intent))) {
    return { run: false, reason: `runs only for intents ${[...tool.intents].join(', ')}; recognised ${intent ?? 'none'}` };
  }
  const missing = tool.sends.filter((code) => !params.has(code));
  if (missing.length) return { run: false, reason: `parameter${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not computed` };
  const dotted = placeholdersOf(tool.def.url).find((code) => /^\.+$/.test(String(params.get(code))));
  if (dotted) return { run: false, reason: `parameter ${dotted} is not usable in a URL (${String(params.get(dotted))})` };
  return { run: true, reason: tool.intents ? `intent ${intent} recognised` : 'runs on every message' };
}

/** The URL with each placeholder percent-encoded, and the JSON body of `body_params`. */
export function buildHttpToolRequest(tool: CompiledHttpTool, params: Map<string, ParamValue>): HttpToolRequest {
  const url = tool.def.url.replace(TEMPLATE_PLACEHOLDER, (_m, code: string) => encodeURIComponent(String(params.get(code) ?? '')));
  const bodyParams = tool.def.body_params;
  const body = bodyParams ? JSON.stringify(Object.fromEntries(bodyParams.map((code) => [code, params.get(code) ?? null]))) : undefined;
  return { method: tool.def.method, url, body, paramsSent: tool.sends };
}

/** A skipped tool's run (not called). */
export function skippedHttpRun(tool: CompiledHttpTool, reason: string): HttpToolRun {
  return {
    tool,
    ran: false,
    reason,
    triggerType: tool.intents ? 'intent' : 'always',
    call: { method: tool.def.method, url: tool.def.url, status: null, latency_ms: null, params_sent: [], failure_reason: '', detail: '' },
    text: '',
    ok: false,
    entity: null,
    items: [],
    title: '',
  };
}

/** Maps a call's result into the run: the reply text and card material, or the fallback with the reason. */
export function interpretHttpResult(
  tool: CompiledHttpTool,
  reason: string,
  request: HttpToolRequest,
  params: Map<string, ParamValue>,
  result: HttpCallResult,
): HttpToolRun {
  const base = {
    tool,
    ran: true,
    reason,
    triggerType: tool.intents ? ('intent' as const) : ('always' as const),
    entity: null,
    items: [],
    title: '',
  };
  const call = (status: number | null, latencyMs: number | null, failure: HttpFailureReason, detail: string): V1HttpCall => ({
    method: request.method,
    url: tool.def.url,
    status,
    latency_ms: latencyMs,
    params_sent: request.paramsSent,
    failure_reason: failure,
    detail,
  });
  const fail = (status: number | null, latencyMs: number | null, failure: Exclude<HttpFailureReason, ''>, detail: string): HttpToolRun => ({
    ...base,
    call: call(status, latencyMs, failure, detail),
    text: tool.def.fallback_message ?? HTTP_TOOL_DEFAULT_FALLBACK,
    ok: false,
  });

  if (!result.ok) return fail(result.status, result.latencyMs, result.reason, result.detail);
  const { status, latencyMs } = result;
  if (status < 200 || status > 299) return fail(status, latencyMs, 'http_status', `the endpoint answered ${status}`);
  if (result.truncated) return fail(status, latencyMs, 'response_too_large', `the answer is over ${HTTP_TOOL_MAX_RESPONSE_BYTES} bytes`);
  let doc: unknown;
  try {
    doc = JSON.parse(result.body.toString('utf8'));
  } catch {
    return fail(status, latencyMs, 'invalid_json', 'the answer is not JSON');
  }

  const entity: Record<string, Scalar> = {};
  for (const [name, tokens] of tool.fields) {
    const value = toScalar(resolvePointer(doc, tokens));
    if (value !== undefined) entity[name] = value;
  }
  const values = (name: string): Scalar | undefined => (Object.hasOwn(entity, name) ? entity[name] : params.get(name));
  const missing = placeholdersOf(tool.def.response.message).filter((name) => values(name) === undefined || values(name) === null);
  if (missing.length) {
    const pointers = missing.map((name) => tool.def.response.fields?.[name] ?? name).join(', ');
    return fail(status, latencyMs, 'missing_field', `the answer has no value at ${pointers}`);
  }

  const items: Array<Record<string, Scalar>> = [];
  if (tool.items) {
    const array = resolvePointer(doc, tool.items.pointer);
    if (Array.isArray(array)) {
      for (const element of array.slice(0, tool.items.max)) {
        const item: Record<string, Scalar> = {};
        for (const [name, tokens] of tool.items.fields) {
          const value = toScalar(resolvePointer(element, tokens));
          if (value !== undefined) item[name] = value;
        }
        items.push(item);
      }
    }
  }
  const fill = (template: string) => template.replace(TEMPLATE_PLACEHOLDER, (_m, name: string) => display(values(name)));
  return {
    ...base,
    call: call(status, latencyMs, '', ''),
    text: fill(tool.def.response.message),
    ok: true,
    entity: tool.def.response.card ? entity : null,
    items,
    title: tool.def.response.card ? fill(tool.def.response.card.title) : '',
  };
}

/** Cards of a successful run: the single card (entity = mapped fields), then one per item. */
export function httpToolCards(run: HttpToolRun, firstIndex: number): CardDto[] {
  if (!run.ok) return [];
  const cards: CardDto[] = [];
  const code = run.tool.def.code;
  const card = (entity: Record<string, Scalar>, title: string, instance: string): CardDto => {
    const index = firstIndex + cards.length;
    const recommended = index === 0;
    const props: Array<[string, Scalar]> = [['title', title], ...Object.entries(entity).filter(([k]) => k !== 'title')];
    if (recommended) props.push(['isRecommended', true]);
    return {
      rendered_jsx: renderElement(run.tool.component, props),
      is_recommended: recommended,
      index,
      json_data: { entity: { ...entity }, sub_entities: [] },
      capability: code,
      instance,
      title,
    };
  };
  if (run.entity) cards.push(card(run.entity, run.title, `${code}:response`));
  const titleField = run.tool.items?.titleField ?? '';
  run.items.forEach((item, i) => cards.push(card(item, display(item[titleField] ?? null) || `${code} ${i + 1}`, `${code}:${i}`)));
  return cards;
}

/** Longest string kept from an answer's field (the rest is cut). */
const MAX_FIELD_CHARS = 2000;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A scalar of the answer, made storable: no NUL (PostgreSQL refuses it), no lone surrogate, bounded length. */
function toScalar(value: unknown): Scalar | undefined {
  if (typeof value === 'string') return value.slice(0, MAX_FIELD_CHARS).replaceAll('\0', '').replace(LONE_SURROGATE, '');
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return undefined;
}

function display(value: Scalar | undefined): string {
  return value === undefined || value === null ? '' : String(value);
}
