import { Injectable } from '@nestjs/common';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { byCreatedAt, paginateSql } from '../../common/pagination/paginate-sql.js';
import { SqlParams } from '../../database/sql-params.js';
import { SqlService } from '../../database/sql.service.js';
import type { PageQuery } from '../../common/pagination/page-query.dto.js';

export type Rating = 'up' | 'down';

/** What an operator's list narrows by (all optional). */
export interface FeedbackFilter {
  rating?: Rating;
  version_tag?: string;
  thread_id?: string;
  user_id?: string;
}

export interface FeedbackRow {
  id: string;
  organization_id: string;
  agent_id: string;
  thread_id: string;
  message_id: string;
  interaction_id: string;
  user_id: string;
  version_id: string;
  version_tag: string;
  rating: Rating;
  comment: string | null;
  created_at: Date;
}

const COLUMNS = `id, organization_id, agent_id, thread_id, message_id, interaction_id, user_id, version_id, version_tag, rating, comment,
  created_at`;

/** The `message_feedback` table: the only place it is named (migrations aside). */
@Injectable()
export class FeedbackRepository {
  constructor(private readonly sql: SqlService) {}

  /**
   * Writes the message's rating, replacing an earlier one, and returns the rating it replaced (null: the first). Run in a
   * transaction: the message's advisory lock orders two ratings of one message, so each sees the other's as previous.
   */
  async rate(row: Omit<FeedbackRow, 'created_at'> & { created_at: Date }): Promise<{ row: FeedbackRow; previous: Rating | null }> {
    await this.sql.rows(`SELECT pg_advisory_xact_lock(hashtextextended($1, 32))`, [row.message_id]);
    const previous = await this.sql.one<{ rating: Rating }>(`SELECT rating FROM message_feedback WHERE message_id = $1`, [row.message_id]);
    const saved = await this.sql.one<FeedbackRow>(
      `INSERT INTO message_feedback (id, organization_id, agent_id, thread_id, message_id, interaction_id, user_id, version_id, version_tag,
                                     rating, comment, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (message_id) DO UPDATE SET rating = EXCLUDED.rating, comment = EXCLUDED.comment, created_at = EXCLUDED.created_at
       RETURNING ${COLUMNS}`,
      [
        row.id,
        row.organization_id,
        row.agent_id,
        row.thread_id,
        row.message_id,
        row.interaction_id,
        row.user_id,
        row.version_id,
        row.version_tag,
        row.rating,
        row.comment,
        row.created_at,
      ],
      'feedback_rate',
    );
    return { row: saved!, previous: previous?.rating ?? null };
  }

  page<T>(
    organizationId: string,
    agentId: string,
    query: FeedbackFilter & PageQuery,
    request: PageRequest,
    toItem: (row: FeedbackRow) => T,
  ): Promise<Page<T>> {
    const params = new SqlParams();
    const where = [`f.agent_id = ${params.add(agentId)}`, `f.organization_id = ${params.add(organizationId)}`];
    if (query.rating) where.push(`f.rating = ${params.add(query.rating)}`);
    if (query.version_tag) where.push(`f.version_tag = ${params.add(query.version_tag)}`);
    if (query.thread_id) where.push(`f.thread_id = ${params.add(query.thread_id.toLowerCase())}`);
    if (query.user_id) where.push(`f.user_id = ${params.add(query.user_id)}`);
    return paginateSql<FeedbackRow & Record<string, unknown>, T>(
      this.sql,
      {
        select: `SELECT ${COLUMNS.split(',')
          .map((c) => `f.${c.trim()}`)
          .join(', ')} FROM message_feedback f`,
        where,
        params,
      },
      query,
      byCreatedAt('f', 'desc'),
      request,
      toItem,
    );
  }
}
