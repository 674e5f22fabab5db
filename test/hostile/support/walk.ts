import type { TestApp } from '../../support/test-app.js';
import { countChanges, Oracle, RowCounter, sendRaw, type Expectation, type RawRequest, type RawResponse } from './oracles.js';
import type { Operation, RequestParts } from './operations.js';
import { consumes, tableOf } from './world.js';

/**
 * Sends one request and holds its answer to every oracle; when it was refused, also checks that it changed
 * nothing: no table's row count moved, and (for a mutating operation) the resources its path names read back
 * byte for byte the same.
 */
export class Judge {
  readonly oracle: Oracle;
  private readonly counter: RowCounter;

  constructor(
    private readonly t: TestApp,
    suite: string,
  ) {
    this.oracle = new Oracle(suite);
    this.counter = new RowCounter(t.dataSource);
  }

  /** The counts after the last refused request, reused as the next request's "before" while nothing else wrote. */
  private lastCounts?: Record<string, number>;

  /** Call after writing outside `judge` (seeding fresh resources), so the next request re-reads its "before". */
  wrote(): void {
    this.lastCounts = undefined;
  }

  async judge(op: Operation, parts: RequestParts, mutation: string, request: RawRequest, expectation: Expectation): Promise<RawResponse> {
    const before = this.lastCounts ?? (await this.counter.counts());
    this.lastCounts = undefined;
    const rowsBefore = op.method === 'GET' ? undefined : await this.rows(op, parts.ids);
    const res = await sendRaw(this.t.baseUrl, request);
    this.oracle.check(op.key, mutation, res, expectation);
    if (res.status >= 400 || res.status === 0) {
      const after = await this.counter.counts();
      const changes = countChanges(before, after);
      this.lastCounts = after;
      if (changes.length > 0) {
        this.oracle.record({
          operation: op.key,
          mutation,
          status: res.status,
          problem: 'rejected request changed row counts',
          excerpt: changes.join('; '),
        });
      }
      if (rowsBefore) {
        const rowsAfter = await this.rows(op, parts.ids);
        for (const [name, row] of Object.entries(rowsBefore)) {
          if (rowsAfter[name] !== row) {
            this.oracle.record({
              operation: op.key,
              mutation,
              status: res.status,
              problem: 'rejected request changed a resource',
              excerpt: `${name}: ${row} → ${rowsAfter[name]}`,
            });
          }
        }
      }
    }
    return res;
  }

  /** The stored rows the path ids of a request name, as text (null when absent). */
  private async rows(op: Operation, ids: Record<string, string>): Promise<Record<string, string | null>> {
    const out: Record<string, string | null> = {};
    for (const param of op.parameters.filter((p) => p.in === 'path')) {
      const table = tableOf(param.name, op.path);
      if (!table || !ids[param.name]) continue;
      const [row] = await this.t.dataSource.query(`SELECT row_to_json(x)::text AS r FROM "${table}" x WHERE id = $1`, [ids[param.name]]);
      out[`${table}/${ids[param.name]}`] = row?.r ?? null;
    }
    return out;
  }
}

/** Path ids per operation, kept until a request consumes them (a 2xx DELETE, publish or archive). */
export class IdCache {
  private readonly cache = new Map<string, Record<string, string>>();

  constructor(
    private readonly resolve: (op: Operation) => Promise<Record<string, string>>,
    private readonly judge: Judge,
  ) {}

  async ids(op: Operation): Promise<Record<string, string>> {
    let ids = this.cache.get(op.key);
    if (!ids) {
      ids = await this.resolve(op);
      this.cache.set(op.key, ids);
      this.judge.wrote();
    }
    return ids;
  }

  /** Called after each answer: a consuming operation that succeeded needs fresh resources next time. */
  answered(op: Operation, status: number): void {
    if (status >= 200 && status < 300 && consumes(op.method, op.path)) this.cache.delete(op.key);
  }
}
