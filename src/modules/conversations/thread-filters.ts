import { ValidationError } from '../../common/errors/app-error.js';
import { parseDateTime } from '../../common/validation/date-time.js';
import { PARAM_FILTER_PATTERN, selectedRuntime, type ThreadListFilter } from './thread-list-filter.js';
import type { SqlParams } from '../../database/sql-params.js';

const COMPARATORS = new Set(['>=', '<=', '>', '<']);
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Translates the thread list filters into SQL conditions on `threads t`, every value a bound parameter.
 * OR within a field, AND across fields. Each condition is written so an index can answer it: equality on the
 * keyset indexes' leading columns, `@>`/`&&` on the GIN-indexed facets and params, jsonpath predicates with
 * histogram-based estimates for parameter presence and comparisons.
 */
/**
 * How common a facet value is (share of threads, from the planner statistics): 0 when rare (the statistics list
 * every value that is not), undefined when the column has no statistics (yet).
 */
export type FacetFrequency = (column: 'tools' | 'rules', value: string) => number | undefined;

/** The summed share of a field's values; undefined when any is unknown. */
function share(values: string[], column: 'tools' | 'rules', frequency: FacetFrequency): number | undefined {
  let sum = 0;
  for (const value of values) {
    const one = frequency(column, value);
    if (one === undefined) return undefined;
    sum += one;
  }
  return sum;
}

/** A facet value at least this common is answered by filtering a keyset walk, not by its GIN posting list. */
export const COMMON_FACET = 0.02;
/** Below this share, a facet's posting list (then sorted) beats walking the created_at order with a filter. */
export const RARE_FACET = 0.005;

/**
 * Whether the list should be driven by a rare facet's GIN posting list rather than by walking an index in
 * created_at order. The planner prices the walk as "stops after ~51/share rows" and often prefers it down to
 * shares of 0.1–0.2%, where it reads tens of thousands of rows; the posting list of such a value is a few
 * thousand rows at a million threads, sorted in a few milliseconds.
 */
export function rareFacetDriven(query: ThreadListFilter, frequency: FacetFrequency): boolean {
  // Unknown shares (a table not analyzed yet) leave the plan to the planner: forcing the sort of a posting list
  // that turns out to hold most of the organization's threads costs far more than a filtered walk.
  return (['tools', 'rules'] as const).some((column) => {
    const values = [...new Set((column === 'tools' ? query.tool : query.rule) ?? [])];
    const total = share(values, column, frequency);
    return values.length > 0 && total !== undefined && total < RARE_FACET;
  });
}

export function threadFilterConditions(
  organizationId: string,
  query: ThreadListFilter,
  p: SqlParams,
  frequency: FacetFrequency = () => 0,
): string[] {
  const runtime = selectedRuntime(query.runtime_version);
  if (runtime === 'v2' && !query.agent_id?.length && query.user_id === undefined) {
    throw ValidationError.field(
      'runtime_version',
      'runtime_version other than 1 lists runtime-v2 threads and requires an agent_id or user_id filter',
    );
  }
  const where = [`t.organization_id = ${p.add(organizationId)}`, `t.runtime = ${p.add(runtime)}`];

  if (query.project_id) where.push(`t.project_id = ${p.add(query.project_id.toLowerCase())}`);
  if (query.user_id !== undefined) where.push(`t.user_id = ${p.add(query.user_id)}`);
  if (query.external_id !== undefined) where.push(`t.external_id = ${p.add(query.external_id)}`);

  const agentIds = [...new Set((query.agent_id ?? []).map((id) => id.toLowerCase()))];
  if (agentIds.length === 1) where.push(`t.agent_id = ${p.add(agentIds[0])}`);
  else if (agentIds.length > 1) where.push(`t.agent_id = ANY(${p.add(agentIds)}::bpchar[])`);

  const tags = [...new Set(query.version_tag ?? [])];
  if (tags.length === 1) where.push(`t.version_tag = ${p.add(tags[0])}`);
  else if (tags.length > 1) where.push(`t.version_tag = ANY(${p.add(tags)}::text[])`);

  const created = query.created ?? [];
  if (created.length > 0) {
    const [start, end] = created.map(parseDateTime);
    if (start === undefined || (created.length > 1 && end === undefined)) {
      throw ValidationError.field('created', 'created must be RFC 3339 date-times such as 2026-01-31T00:00:00Z');
    }
    // The caller's strings are passed as written: PostgreSQL keeps sub-millisecond precision that Date would drop.
    where.push(`t.created_at >= ${p.add(created[0])}::timestamptz`);
    if (end !== undefined) {
      if (start > end) throw ValidationError.field('created', 'created: the start of the range is after its end');
      where.push(`t.created_at <= ${p.add(created[1])}::timestamptz`);
    }
  }

  // Facets: `@>` (one value) / `&&` (OR of values) are GIN-indexable. When the query also has a rare facet value
  // (whose posting list drives the plan), a common one is written so it can only filter: otherwise the planner may
  // AND the rare list with a posting list of hundreds of thousands of rows, which costs more than it saves.
  const facets = (['tools', 'rules'] as const)
    .map((column) => {
      const values = [...new Set((column === 'tools' ? query.tool : query.rule) ?? [])];
      return { column, values, total: share(values, column, frequency) };
    })
    .filter((f) => f.values.length > 0);
  const hasRare = facets.some((f) => f.total !== undefined && f.total < COMMON_FACET);
  for (const { column, values, total } of facets) {
    const filterOnly = hasRare && total !== undefined && total >= COMMON_FACET;
    const target = filterOnly ? `(t.${column} || '{}'::text[])` : `t.${column}`;
    if (values.length === 1) where.push(`${target} @> ARRAY[${p.add(values[0])}]::text[]`);
    else where.push(`${target} && ${p.add(values)}::text[]`);
  }

  const params = [...new Set(query.param ?? [])];
  if (params.length > 0) {
    const alternatives = params.map((filter) => paramCondition(filter, p));
    where.push(alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(' OR ')})`);
  }
  return where;
}

/**
 * One `param` filter. `key:value` is containment (`@>`, answered by the jsonb_path_ops GIN index); `key:*` and
 * the comparisons are jsonpath predicates through the filter-only operators `#@?` / `#@@` (migration
 * 1732240400000): no index can narrow them, and PostgreSQL estimates their selectivity from the column's histogram.
 * A comparison matches JSON numbers only: comparing a string or boolean is a jsonpath error, which `@@` turns
 * into "no match". Keys are limited to [A-Za-z0-9_.-], so quoting them in the path needs no escaping.
 */
function paramCondition(filter: string, p: SqlParams): string {
  const match = PARAM_FILTER_PATTERN.exec(filter);
  if (!match) throw ValidationError.field('param', 'param must be key:value, key:*, or key>=n, key>n, key<=n, key<n with a number n');
  const [, key, value, operator, number] = match as unknown as [string, string, string | undefined, string | undefined, string | undefined];
  if (operator && COMPARATORS.has(operator)) {
    // Number() then String(): a canonical jsonpath literal (no leading zeros; the pattern keeps it out of exponent form).
    return `t.params #@@ ${p.add(`$."${key}" ${operator} ${String(Number(number))}`)}::jsonpath`;
  }
  if (value === '*') return `t.params #@? ${p.add(`$."${key}"`)}::jsonpath`;
  // The value as a JSON string, and also as the number or boolean it spells (`budget:30` matches 30 and "30").
  const candidates: unknown[] = [value];
  if (value !== undefined && NUMBER.test(value) && Number.isFinite(Number(value))) candidates.push(Number(value));
  if (value === 'true' || value === 'false') candidates.push(value === 'true');
  const ors = candidates.map((candidate) => `t.params @> ${p.add(JSON.stringify({ [key]: candidate }))}::jsonb`);
  return ors.length === 1 ? ors[0]! : `(${ors.join(' OR ')})`;
}
