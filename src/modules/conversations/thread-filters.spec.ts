import { ValidationError } from '../../common/errors/app-error.js';
import type { ThreadListFilter } from './thread-list-filter.js';
import { SqlParams } from '../../database/sql-params.js';
import { rareFacetDriven, threadFilterConditions, type FacetFrequency } from './thread-filters.js';

const ORG = 'a'.repeat(24);
const build = (query: Partial<ThreadListFilter>, frequency?: FacetFrequency) => {
  const params = new SqlParams();
  const where = threadFilterConditions(ORG, query as ThreadListFilter, params, frequency);
  return { where, values: params.values };
};
const shares: Record<string, number> = { 'tools:catalog': 0.45, 'rules:over_budget': 0.4, 'tools:recalls': 0.001 };
const frequency: FacetFrequency = (column, value) => shares[`${column}:${value}`] ?? 0;

describe('threadFilterConditions', () => {
  it('scopes by organization and runtime v1 by default', () => {
    expect(build({})).toEqual({ where: ['t.organization_id = $1', 't.runtime = $2'], values: [ORG, 'v1'] });
  });

  it('reads runtime v2 for any other runtime_version and then requires agent_id or user_id', () => {
    expect(() => build({ runtime_version: '2' })).toThrow(ValidationError);
    expect(build({ runtime_version: '2.1.0', user_id: 'u' }).values).toContain('v2');
  });

  it('writes facets as GIN-indexable conditions, OR within a field', () => {
    const { where, values } = build({ tool: ['a'], rule: ['x:fired', 'y'] });
    expect(where).toContain('t.tools @> ARRAY[$3]::text[]');
    expect(where).toContain('t.rules && $4::text[]');
    expect(values.slice(2)).toEqual(['a', ['x:fired', 'y']]);
  });

  it('lets a common facet only filter when a rare one is present', () => {
    const { where } = build({ tool: ['recalls'], rule: ['over_budget'] }, frequency);
    expect(where).toContain('t.tools @> ARRAY[$3]::text[]');
    expect(where).toContain(`(t.rules || '{}'::text[]) @> ARRAY[$4]::text[]`);
    // Two common facets: both index-eligible, the planner walks created_at with a filter.
    expect(build({ tool: ['catalog'], rule: ['over_budget'] }, frequency).where).toContain('t.rules @> ARRAY[$4]::text[]');
  });

  it('drives the plan by a rare facet only', () => {
    expect(rareFacetDriven({ tool: ['recalls'] } as ThreadListFilter, frequency)).toBe(true);
    expect(rareFacetDriven({ tool: ['catalog'] } as ThreadListFilter, frequency)).toBe(false);
    expect(rareFacetDriven({ tool: ['catalog', 'recalls'] } as ThreadListFilter, frequency)).toBe(false);
    expect(rareFacetDriven({ user_id: 'u' } as ThreadListFilter, frequency)).toBe(false);
  });

  it('leaves the plan to the planner when the facet statistics are unknown (table not analyzed)', () => {
    const unknown: FacetFrequency = () => undefined;
    expect(rareFacetDriven({ tool: ['catalog'] } as ThreadListFilter, unknown)).toBe(false);
    expect(build({ tool: ['catalog'], rule: ['over_budget'] }, unknown).where).toContain('t.rules @> ARRAY[$4]::text[]');
    // One known rare value still drives the plan; a facet of unknown share stays index-eligible beside it.
    const partly: FacetFrequency = (column, value) => (column === 'tools' ? frequency(column, value) : undefined);
    expect(rareFacetDriven({ tool: ['recalls'], rule: ['over_budget'] } as ThreadListFilter, partly)).toBe(true);
    expect(build({ tool: ['recalls'], rule: ['over_budget'] }, partly).where).toContain('t.rules @> ARRAY[$4]::text[]');
  });

  it('writes params as containment, presence and numeric jsonpath comparisons', () => {
    const { where, values } = build({ param: ['budget>=050.50', 'size:*', 'budget:30'] });
    expect(where[2]).toBe('(t.params #@@ $3::jsonpath OR t.params #@? $4::jsonpath OR (t.params @> $5::jsonb OR t.params @> $6::jsonb))');
    expect(values.slice(2)).toEqual(['$."budget" >= 50.5', '$."size"', '{"budget":"30"}', '{"budget":30}']);
  });

  it('takes created as a lower bound or an inclusive range, rejecting a reversed one', () => {
    expect(build({ created: ['2026-01-01T00:00:00Z'] }).where).toContain('t.created_at >= $3::timestamptz');
    expect(build({ created: ['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z'] }).where).toContain('t.created_at <= $4::timestamptz');
    expect(() => build({ created: ['2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z'] })).toThrow(ValidationError);
  });

  it('refuses impossible date-times in created, which PostgreSQL would refuse', () => {
    expect(() => build({ created: ['2024-02-30T00:00:00Z'] })).toThrow(ValidationError);
    expect(() => build({ created: ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00+16:00'] })).toThrow(ValidationError);
  });

  it('lower-cases ids and de-duplicates repeated agent ids', () => {
    const { where, values } = build({ agent_id: ['ABCDEF0123456789ABCDEF01', 'abcdef0123456789abcdef01'], project_id: 'B'.repeat(24) });
    expect(where).toContain('t.agent_id = $4');
    expect(values).toEqual([ORG, 'v1', 'b'.repeat(24), 'abcdef0123456789abcdef01']);
  });
});
