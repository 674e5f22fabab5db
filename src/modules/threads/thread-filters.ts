import { ValidationError } from '../../common/errors/app-error.js';
import { PARAM_FILTER_PATTERN, selectedRuntime, type ListThreadsQueryDto } from './dto/thread-query.dto.js';
import type { SqlParams } from './sql-page.js';

const COMPARATORS = new Set(['>=', '<=', '>', '<']);
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Translates the thread list filters into SQL conditions on `threads t`, every value a bound parameter.
 * OR within a field, AND across fields. Each condition is written so an index can answer it: equality on the
 * keyset indexes' leading columns, `@>`/`&&` on the GIN-indexed facets, `?`/`@>` on the GIN-indexed params.
 */
export function threadFilterConditions(organizationId: string, query: ListThreadsQueryDto, p: SqlParams): string[] {
  const runtime = selectedRuntime(query.runtime_version);
  if (runtime === 'v2' && !query.agent_id?.length && query.user_id === undefined) {
    throw ValidationError.field('runtime_version', 'runtime_version other than 1 lists runtime-v2 threads and requires an agent_id or user_id filter');
  }
  const where = [`t.organization_id = ${p.add(organizationId)}`, `t.runtime = ${p.add(runtime)}`];

  if (query.project_id) where.push(`t.project_id = ${p.add(query.project_id.toLowerCase())}`);
  if (query.user_id !== undefined) where.push(`t.user_id = ${p.add(query.user_id)}`);
  if (query.external_id !== undefined) where.push(`t.external_id = ${p.add(query.external_id)}`);

  const agentIds = [...new Set((query.agent_id ?? []).map((id) => id.toLowerCase()))];
  if (agentIds.length === 1) where.push(`t.agent_id = ${p.add(agentIds[0])}`);
  else if (agentIds.length > 1) where.push(`t.agent_id = ANY(${p.add(agentIds)}::bpchar[])`);

  const created = query.created ?? [];
  if (created.length > 0) {
    const [start, end] = created.map((value) => new Date(value));
    if (Number.isNaN(start!.getTime()) || (end && Number.isNaN(end.getTime()))) {
      throw ValidationError.field('created', 'created must be RFC 3339 date-times such as 2026-01-31T00:00:00Z');
    }
    // The caller's strings are passed as written: PostgreSQL keeps sub-millisecond precision that Date would drop.
    where.push(`t.created_at >= ${p.add(created[0])}::timestamptz`);
    if (end) {
      if (start!.getTime() > end.getTime()) throw ValidationError.field('created', 'created: the start of the range is after its end');
      where.push(`t.created_at <= ${p.add(created[1])}::timestamptz`);
    }
  }

  const facet = (column: 'tools' | 'rules', values: string[] | undefined) => {
    const distinct = [...new Set(values ?? [])];
    if (distinct.length === 1) where.push(`t.${column} @> ARRAY[${p.add(distinct[0])}]::text[]`);
    else if (distinct.length > 1) where.push(`t.${column} && ${p.add(distinct)}::text[]`);
  };
  facet('tools', query.tool);
  facet('rules', query.rule);

  const params = [...new Set(query.param ?? [])];
  if (params.length > 0) {
    const alternatives = params.map((filter) => paramCondition(filter, p));
    where.push(alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(' OR ')})`);
  }
  return where;
}

/** One `param` filter: `key:*` (present), `key:value` (equal), `key>=n` and the other comparisons (numeric). */
function paramCondition(filter: string, p: SqlParams): string {
  const match = PARAM_FILTER_PATTERN.exec(filter);
  if (!match) throw ValidationError.field('param', 'param must be key:value, key:*, or key>=n, key>n, key<=n, key<n with a number n');
  const [, key, value, operator, number] = match as unknown as [string, string, string | undefined, string | undefined, string | undefined];
  if (operator && COMPARATORS.has(operator)) {
    // Only JSON numbers compare: a string or boolean value under the key never matches (and never fails the cast).
    const k = p.add(key);
    return `(t.params ? ${k} AND CASE WHEN jsonb_typeof(t.params -> ${k}) = 'number' THEN (t.params ->> ${k})::numeric END ${operator} ${p.add(number)}::numeric)`;
  }
  if (value === '*') return `t.params ? ${p.add(key)}`;
  // The value as a JSON string, and also as the number or boolean it spells (`budget:30` matches 30 and "30").
  const candidates: unknown[] = [value];
  if (value !== undefined && NUMBER.test(value) && Number.isFinite(Number(value))) candidates.push(Number(value));
  if (value === 'true' || value === 'false') candidates.push(value === 'true');
  const ors = candidates.map((candidate) => `t.params @> ${p.add(JSON.stringify({ [key]: candidate }))}::jsonb`);
  return ors.length === 1 ? ors[0]! : `(${ors.join(' OR ')})`;
}
