import { Injectable } from '@nestjs/common';
import { SqlParams } from '../../database/sql-params.js';
import { SqlService } from '../../database/sql.service.js';
import type { AnalyticsGroupBy } from './dto/analytics.dto.js';

/** One group's sums (PostgreSQL returns bigint sums as strings). */
export interface AnalyticsSums {
  key: string;
  version_id: string | null;
  version_tags: string[];
  threads: string;
  declined: string;
  handed_off: string;
  messages: string;
  input_tokens: string;
  output_tokens: string;
  feedback_up: string;
  feedback_down: string;
  latency_counts: string[];
}

/** The group's key column of `analytics_daily`, by grouping. */
const KEY: Record<AnalyticsGroupBy, string> = {
  version_tag: 'version_tag',
  arm: 'version_id',
  day: `to_char(day, 'YYYY-MM-DD')`,
};

/** A row of `analytics_daily` to add to: the group of a turn (its UTC day, revision tag and version). */
export interface AnalyticsGroupKey {
  organizationId: string;
  agentId: string;
  day: Date;
  versionTag: string;
  versionId: string;
}

/**
 * `analytics_daily` and `thread_outcomes` (migration 1732243310000): the trigger on interactions keeps turns and outcomes
 * as turns are written; this adds what happens outside a turn (feedback, handoffs) and reads the report.
 */
@Injectable()
export class AnalyticsRepository {
  constructor(private readonly sql: SqlService) {}

  /** Sums per group over [fromDay, toDay] (dates, either open). One index range scan of the agent's daily rows. */
  report(
    organizationId: string,
    agentId: string,
    groupBy: AnalyticsGroupBy,
    fromDay: string | null,
    toDay: string | null,
  ): Promise<AnalyticsSums[]> {
    const p = new SqlParams();
    const where = [`agent_id = ${p.add(agentId)}`, `organization_id = ${p.add(organizationId)}`];
    if (fromDay) where.push(`day >= ${p.add(fromDay)}::date`);
    if (toDay) where.push(`day <= ${p.add(toDay)}::date`);
    const key = KEY[groupBy];
    // The histograms are summed by unnesting them once and grouping by bucket: half the time of an array-adding
    // aggregate called per row (5,856 daily rows: 24 vs 52 ms median on this loaded machine, docs/evaluations.md).
    return this.sql.rows<AnalyticsSums>(
      `WITH r AS (SELECT ${key} AS key, * FROM analytics_daily WHERE ${where.join(' AND ')}),
       sums AS (
         SELECT key, ${groupBy === 'arm' ? 'min(version_id)' : 'NULL'} AS version_id,
                array_agg(DISTINCT version_tag ORDER BY version_tag) AS version_tags,
                sum(threads) AS threads, sum(declined) AS declined, sum(handed_off) AS handed_off, sum(messages) AS messages,
                sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens, sum(feedback_up) AS feedback_up,
                sum(feedback_down) AS feedback_down
           FROM r GROUP BY key
       ), histograms AS (
         SELECT key, array_agg(n ORDER BY i) AS latency_counts
           FROM (SELECT key, i, sum(c) AS n FROM r, unnest(r.latency_counts) WITH ORDINALITY AS u(c, i) GROUP BY key, i) b
          GROUP BY key
       )
       SELECT sums.*, histograms.latency_counts FROM sums JOIN histograms USING (key) ORDER BY key`,
      p.values,
      `analytics_report_${groupBy}_${fromDay ? 'from' : ''}_${toDay ? 'to' : ''}`,
    );
  }

  /** Adds feedback counts to a turn's group (negative: a rating replaced). */
  async addFeedback(group: AnalyticsGroupKey, up: number, down: number): Promise<void> {
    await this.sql.rows(
      `INSERT INTO analytics_daily AS a (organization_id, agent_id, day, version_tag, version_id, shard, feedback_up, feedback_down)
       VALUES ($1, $2, ($3::timestamptz AT TIME ZONE 'UTC')::date, $4, $5, (pg_backend_pid() % 8)::smallint, $6, $7)
       ON CONFLICT (agent_id, day, version_tag, version_id, shard) DO UPDATE
          SET feedback_up = a.feedback_up + EXCLUDED.feedback_up, feedback_down = a.feedback_down + EXCLUDED.feedback_down`,
      [group.organizationId, group.agentId, group.day, group.versionTag, group.versionId, up, down],
      'analytics_add_feedback',
    );
  }

  /**
   * Marks the thread handed off (for good) and moves it between its group's outcome counters, in one statement; a
   * thread already handed off, or never seen by the roll-up, changes nothing.
   */
  async handOff(threadId: string): Promise<void> {
    await this.sql.rows(
      `WITH prior AS (
         SELECT thread_id, outcome FROM thread_outcomes WHERE thread_id = $1 AND outcome <> 'handed_off' FOR UPDATE
       ), moved AS (
         UPDATE thread_outcomes o SET outcome = 'handed_off' FROM prior WHERE o.thread_id = prior.thread_id
         RETURNING o.organization_id, o.agent_id, o.day, o.version_tag, o.version_id, prior.outcome AS was
       )
       INSERT INTO analytics_daily AS a (organization_id, agent_id, day, version_tag, version_id, shard, handed_off, declined)
       SELECT organization_id, agent_id, day, version_tag, version_id, (pg_backend_pid() % 8)::smallint, 1, -(was = 'declined')::int
         FROM moved
       ON CONFLICT (agent_id, day, version_tag, version_id, shard) DO UPDATE
          SET handed_off = a.handed_off + EXCLUDED.handed_off, declined = a.declined + EXCLUDED.declined`,
      [threadId],
      'analytics_hand_off',
    );
  }
}
