import { Injectable } from '@nestjs/common';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageQuery } from '../../common/pagination/page-query.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { SqlService } from '../../database/sql.service.js';
import { paginateSql } from '../../common/pagination/paginate-sql.js';
import { SqlParams } from '../../database/sql-params.js';
import type { FacetFrequency } from './thread-filters.js';

/** How long the facet frequencies read from the planner statistics are reused. */
const FACET_STATS_TTL_MS = 60_000;

export interface ThreadRow {
  id: string;
  organization_id: string;
  project_id: string;
  agent_id: string;
  user_id: string;
  external_id: string | null;
  title: string;
  runtime: 'v1' | 'v2';
  version_tag: string;
  tools: string[];
  rules: string[];
  params: Record<string, unknown>;
  interaction_count: number;
  last_interaction_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type ThreadItemRow = Pick<ThreadRow, 'id' | 'title' | 'created_at' | 'version_tag' | 'agent_id' | 'user_id' | 'external_id'>;

export interface MessageRow {
  id: string;
  role: 'user' | 'agent';
  text: string | null;
  created_at: Date;
  interaction_id: string;
  image_url: string | null;
  reply: Record<string, unknown> | null;
  version_tag: string;
  input_tokens: number;
  output_tokens: number;
  position: number;
}

const THREAD_COLUMNS = `id, organization_id, project_id, agent_id, user_id, external_id, title, runtime, version_tag, tools, rules,
  params, interaction_count, last_interaction_at, created_at, updated_at`;

/** Raw SQL over `threads` and `interactions` (tables written by the messaging turn; read here). */
@Injectable()
export class ThreadsRepository {
  private facetStats: { at: number; shares: Map<string, number> } | null = null;
  private refreshing: Promise<void> | null = null;

  constructor(private readonly sql: SqlService) {}

  /**
   * The share of threads carrying each common tool and rule entry, from `pg_stats` (what ANALYZE sampled; values
   * not listed are rarer than every listed one). Read once a minute; the list filters use it to pick which facet
   * an index answers.
   */
  async facetFrequency(): Promise<FacetFrequency> {
    if (!this.facetStats || Date.now() - this.facetStats.at > FACET_STATS_TTL_MS) {
      this.refreshing ??= this.loadFacetStats().finally(() => {
        this.refreshing = null;
      });
      if (!this.facetStats) await this.refreshing;
    }
    const shares = this.facetStats?.shares;
    return (column, value) => shares?.get(`${column}:${value}`) ?? 0;
  }

  private async loadFacetStats(): Promise<void> {
    const shares = new Map<string, number>();
    try {
      const rows = await this.sql.rows<{ attname: string; elems: string[] | null; freqs: number[] | null }>(
        `SELECT attname, most_common_elems::text::text[] AS elems, most_common_elem_freqs AS freqs
           FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'threads' AND attname IN ('tools', 'rules')`,
        [],
        'threads_facet_stats',
      );
      for (const row of rows) (row.elems ?? []).forEach((elem, i) => shares.set(`${row.attname}:${elem}`, row.freqs?.[i] ?? 0));
    } catch {
      // No statistics is not an error: every facet then counts as rare and stays index-eligible.
    }
    this.facetStats = { at: Date.now(), shares };
  }

  /**
   * One page of list items; `where` are conditions on `threads t` whose values are in `params`. With
   * `unordered`, the sort key is written as an expression no index provides, so the plan cannot walk a
   * created_at index and sorts the (small) set a rare facet's posting list yields instead; same order, same cursors.
   */
  list<T>(
    where: string[],
    params: SqlParams,
    query: PageQuery,
    request: PageRequest,
    toItem: (row: ThreadItemRow) => T,
    unordered = false,
  ): Promise<Page<T>> {
    return paginateSql<ThreadItemRow & Record<string, unknown>, T>(
      this.sql,
      { select: 'SELECT t.id, t.title, t.created_at, t.version_tag, t.agent_id, t.user_id, t.external_id FROM threads t', where, params },
      query,
      {
        sortColumns: { created_at: unordered ? `(t.created_at + interval '0 seconds')` : 't.created_at' },
        idColumn: 't.id',
        sortValue: (row) => row.created_at.toISOString(),
        rowId: (row) => row.id,
        defaultSort: 'created_at',
        defaultOrder: 'desc',
      },
      request,
      toItem,
    );
  }

  find(organizationId: string, threadId: string): Promise<ThreadRow | undefined> {
    return this.sql.one<ThreadRow>(
      `SELECT ${THREAD_COLUMNS} FROM threads WHERE id = $1 AND organization_id = $2`,
      [threadId.toLowerCase(), organizationId],
      'threads_find',
    );
  }

  rename(organizationId: string, threadId: string, runtime: 'v1' | 'v2', title: string): Promise<ThreadRow | undefined> {
    return this.sql.one<ThreadRow>(
      `UPDATE threads SET title = $4, updated_at = now()
        WHERE id = $1 AND organization_id = $2 AND runtime = $3
       RETURNING ${THREAD_COLUMNS}`,
      [threadId.toLowerCase(), organizationId, runtime, title],
      'threads_rename',
    );
  }

  /**
   * The transcript: each interaction yields the end-user message (when it had text or an image) and the reply,
   * in turn order. `position` (2·seq for the user message, 2·seq+1 for the reply) is the keyset column.
   */
  messages<T>(threadId: string, query: PageQuery, request: PageRequest, toItem: (row: MessageRow) => T): Promise<Page<T>> {
    const params = new SqlParams();
    const thread = params.add(threadId);
    const select = `SELECT m.* FROM (
        SELECT i.user_message_id AS id, 'user' AS role, i.user_text AS text, i.created_at, i.id AS interaction_id, i.image_url,
               NULL::json AS reply, i.version_tag, i.input_tokens, i.output_tokens, i.seq * 2 AS position
          FROM interactions i
         WHERE i.thread_id = ${thread} AND (i.user_text IS NOT NULL OR i.image_url IS NOT NULL)
        UNION ALL
        SELECT i.reply_message_id, 'agent', i.reply_text, i.created_at, i.id, NULL, i.reply, i.version_tag, i.input_tokens,
               i.output_tokens, i.seq * 2 + 1
          FROM interactions i
         WHERE i.thread_id = ${thread}
      ) m`;
    return paginateSql<MessageRow & Record<string, unknown>, T>(
      this.sql,
      { select, where: [], params },
      query,
      {
        sortColumns: { created_at: 'm.position' },
        idColumn: 'm.id',
        sortValue: (row) => Number(row.position),
        sortKinds: { created_at: 'number' },
        rowId: (row) => row.id,
        defaultSort: 'created_at',
        defaultOrder: 'asc',
      },
      request,
      toItem,
    );
  }
}
