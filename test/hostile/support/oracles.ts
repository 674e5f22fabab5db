import { appendFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';

/** One raw request: the path is sent exactly as written (already percent-encoded where needed). */
export interface RawRequest {
  method: string;
  /** Path and query, as they go on the request line. */
  url: string;
  headers?: Record<string, string>;
  /** A string is sent as UTF-8; bytes are sent as is (fetch then adds no content-type). */
  body?: string | Uint8Array;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: any;
}

/** How long a subscription's stream is read before the client leaves. */
const SUBSCRIPTION_READ_MS = 500;

/** The text a streamed response sends within `ms`, then the connection is dropped. */
async function readFor(response: Response, ms: number, controller: AbortController): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  const reader = response.body!.getReader();
  const stop = setTimeout(() => controller.abort(), ms);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // Aborted: the client left, as intended.
  } finally {
    clearTimeout(stop);
  }
  return text;
}

/** Sends `request` to `baseUrl`; a request that gets no HTTP answer comes back as status 0 with the reason as text. */
export async function sendRaw(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  try {
    const body = request.body === undefined ? undefined : typeof request.body === 'string' ? request.body : Buffer.from(request.body);
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(new Error('no answer within 30 s')), 30_000);
    const response = await fetch(`${baseUrl}${request.url}`, {
      method: request.method,
      headers: request.headers,
      body,
      signal: controller.signal,
    }).finally(() => clearTimeout(timeout));
    // A subscription (GET of an event stream: a thread's or the inbox's events) stays open by design: what it sends
    // in its first moments is judged, then the client goes away.
    const subscription = request.method === 'GET' && (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    const text = subscription ? await readFor(response, SUBSCRIPTION_READ_MS, controller) : await response.text();
    let json: unknown;
    try {
      json = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  } catch (error) {
    return { status: 0, headers: new Headers(), text: `no HTTP answer: ${String((error as Error)?.cause ?? error)}`, json: undefined };
  }
}

export interface Violation {
  operation: string;
  mutation: string;
  status: number;
  problem: string;
  excerpt: string;
}

/** What a response to one request must satisfy besides the universal rules. */
export interface Expectation {
  /** The token endpoint answers failures with an OAuth body, not the envelope. */
  oauth?: boolean;
  /** The input is invalid by contract: any 2xx/3xx is a violation. */
  reject?: boolean;
  /** When set, the status must be one of these. */
  statuses?: number[];
}

const STACK_TRACE = /at .+\(.+:\d+:\d+\)|\n\s+at [\w.<>]+ |node_modules\//;
const SQL_TEXT = /\b(SELECT|INSERT|UPDATE|DELETE)\b.*\b(FROM|INTO|SET)\b/i;
const DRIVER_TEXT =
  /QueryFailedError|duplicate key|violates|invalid byte sequence|unsupported Unicode escape|stack depth limit|syntax error at or near/i;

/**
 * The oracles every response is held to, and the tally printed at the end. Violations are collected (never thrown)
 * so one run lists all of them, each with what is needed to reproduce it.
 */
export class Oracle {
  readonly violations: Violation[] = [];
  readonly statusClasses: Record<string, number> = {};
  sent = 0;

  constructor(private readonly suite: string) {}

  check(operation: string, mutation: string, res: RawResponse, expectation: Expectation = {}): void {
    this.sent += 1;
    const statusClass = res.status === 0 ? 'none' : `${Math.floor(res.status / 100)}xx`;
    this.statusClasses[statusClass] = (this.statusClasses[statusClass] ?? 0) + 1;
    const fail = (problem: string) => this.record({ operation, mutation, status: res.status, problem, excerpt: res.text });

    if (res.status === 0) return fail('no HTTP answer (connection closed or timed out)');
    if (res.status >= 500) fail('server error (5xx)');
    if (expectation.reject && res.status < 400) fail('hostile input accepted');
    if (expectation.statuses && !expectation.statuses.includes(res.status)) fail(`status not in [${expectation.statuses.join(', ')}]`);
    if (STACK_TRACE.test(res.text)) fail('stack trace in body');
    if (SQL_TEXT.test(res.text) || DRIVER_TEXT.test(res.text)) fail('SQL or driver text in body');
    if (res.status >= 400) this.checkErrorBody(res, expectation, fail);
  }

  record(violation: Violation): void {
    this.violations.push({ ...violation, excerpt: excerpt(violation.excerpt) });
  }

  private checkErrorBody(res: RawResponse, expectation: Expectation, fail: (problem: string) => void): void {
    const requestId = res.headers.get('x-request-id');
    if (!requestId) fail('no x-request-id header on an error');
    if (!(res.headers.get('content-type') ?? '').includes('application/json')) {
      fail(`error content-type ${res.headers.get('content-type')}`);
    }
    const body = res.json;
    // A request whose headers are too large is refused by the HTTP parser before any route is known: the
    // envelope is as right as the OAuth body there.
    if (expectation.oauth && !(res.status === 431 && isObject(body) && isObject(body.error))) {
      const ok =
        isObject(body) &&
        typeof body.error === 'string' &&
        (body.error_description === undefined || typeof body.error_description === 'string') &&
        Object.keys(body).every((k) => k === 'error' || k === 'error_description');
      if (!ok) fail('token endpoint error outside the OAuth body');
      return;
    }
    const error = isObject(body) ? body.error : undefined;
    const ok =
      isObject(body) &&
      Object.keys(body).length === 1 &&
      isObject(error) &&
      typeof error.code === 'string' &&
      error.code.length > 0 &&
      typeof error.message === 'string' &&
      typeof error.request_id === 'string' &&
      (error.details === undefined ||
        (Array.isArray(error.details) && error.details.every((d: any) => isObject(d) && typeof d.message === 'string')));
    if (!ok) return fail('error outside the envelope {error:{code,message,request_id}}');
    if (requestId && error.request_id !== requestId) fail(`envelope request_id ${error.request_id} differs from x-request-id ${requestId}`);
    if (
      res.status === 422 &&
      error.code === 'validation_error' &&
      !(Array.isArray(error.details) && error.details.length > 0 && error.details.every((d: any) => typeof d.field === 'string'))
    ) {
      fail('validation_error without details[].field');
    }
  }

  /** Counts, violations grouped by problem, and each violation; printed once at the end of a suite. */
  summary(limit = 400): string {
    const byProblem: Record<string, number> = {};
    for (const v of this.violations) byProblem[v.problem] = (byProblem[v.problem] ?? 0) + 1;
    const lines = [
      `[hostile:${this.suite}] requests sent: ${this.sent}; by status class: ${JSON.stringify(this.statusClasses)}; violations: ${this.violations.length}`,
      ...Object.entries(byProblem).map(([problem, n]) => `  ${n} × ${problem}`),
      ...this.violations.slice(0, limit).map((v) => `  - ${v.operation} | ${v.mutation} | ${v.status} | ${v.problem} | ${v.excerpt}`),
    ];
    if (this.violations.length > limit) lines.push(`  … ${this.violations.length - limit} more (HOSTILE_REPORT=<file> writes them all)`);
    return lines.join('\n');
  }
}

/** Prints the summary and, when HOSTILE_REPORT names a file, writes every violation there as JSON lines. */
export function report(oracle: Oracle, extra = ''): void {
  console.log(`${oracle.summary()}${extra}`);
  const file = process.env.HOSTILE_REPORT;
  if (file) appendFileSync(file, oracle.violations.map((v) => JSON.stringify(v)).join('\n') + (oracle.violations.length > 0 ? '\n' : ''));
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

/**
 * Row counts of every table (the entities' and any raw table of the schema), read in one statement, so a
 * rejected request that wrote anything is seen.
 */
export class RowCounter {
  private statement?: string;

  constructor(private readonly dataSource: DataSource) {}

  async counts(): Promise<Record<string, number>> {
    if (!this.statement) {
      const raw: Array<{ tablename: string }> = await this.dataSource.query(
        `SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`,
      );
      const tables = [...new Set([...this.dataSource.entityMetadatas.map((m) => m.tableName), ...raw.map((r) => r.tablename)])].sort();
      this.statement = `SELECT json_build_object(${tables.map((t) => `'${t}', (SELECT count(*) FROM "${t}")`).join(', ')}) AS counts`;
    }
    const [row] = await this.dataSource.query(this.statement);
    return Object.fromEntries(Object.entries(row.counts as Record<string, string>).map(([k, v]) => [k, Number(v)]));
  }
}

/** The tables whose count differs, as `table: before → after`. */
export function countChanges(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys({ ...before, ...after })
    .filter((t) => before[t] !== after[t])
    .map((t) => `${t}: ${before[t]} → ${after[t]}`);
}
