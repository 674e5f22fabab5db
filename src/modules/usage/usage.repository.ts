import { Injectable } from '@nestjs/common';
import { SqlService } from '../../database/sql.service.js';
import { SqlParams } from '../../database/sql-params.js';
import type { UsageSums } from './dto/usage.dto.js';
import type { UsagePlan } from './usage-range.js';

const INTERACTION_SUMS = 'count(*), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(reasoning_tokens)';

/**
 * Usage sums over an agent or a project: whole days from the `usage_daily` roll-up (kept by a trigger on
 * interactions, migration 1732240400000), partial days from interactions through their (scope, created_at) indexes.
 */
@Injectable()
export class UsageRepository {
  constructor(private readonly sql: SqlService) {}

  async sum(scope: 'agent_id' | 'project_id', id: string, plan: UsagePlan): Promise<UsageSums> {
    const p = new SqlParams();
    const key = p.add(id);
    const parts: string[] = [];
    if (plan.days) {
      const where = [`${scope} = ${key}`];
      if (plan.days.start) where.push(`day >= ${p.add(plan.days.start)}::date`);
      if (plan.days.end) where.push(`day < ${p.add(plan.days.end)}::date`);
      parts.push(`SELECT sum(interaction_count), sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(reasoning_tokens)
                    FROM usage_daily WHERE ${where.join(' AND ')}`);
    }
    if (plan.head) {
      parts.push(`SELECT ${INTERACTION_SUMS} FROM interactions
                   WHERE ${scope} = ${key} AND created_at >= ${p.add(plan.head.from)} AND created_at < ${p.add(plan.head.before)}`);
    }
    if (plan.tail) {
      parts.push(`SELECT ${INTERACTION_SUMS} FROM interactions
                   WHERE ${scope} = ${key} AND created_at >= ${p.add(plan.tail.from)} AND created_at <= ${p.add(plan.tail.to)}`);
    }
    if (plan.direct) {
      parts.push(`SELECT ${INTERACTION_SUMS} FROM interactions
                   WHERE ${scope} = ${key} AND created_at >= ${p.add(plan.direct.from)} AND created_at <= ${p.add(plan.direct.to)}`);
    }
    const row = await this.sql.one<UsageSums>(
      `SELECT sum(n) AS interaction_count, sum(i) AS input_tokens, sum(o) AS output_tokens, sum(c) AS cache_read_tokens, sum(r) AS reasoning_tokens
         FROM (${parts.join(' UNION ALL ')}) AS s(n, i, o, c, r)`,
      p.values,
    );
    return row ?? { interaction_count: 0, input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, reasoning_tokens: 0 };
  }
}
