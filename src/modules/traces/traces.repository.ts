import { Injectable } from '@nestjs/common';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageQuery } from '../../common/pagination/page-query.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { SqlService } from '../../database/sql.service.js';
import { paginateSql } from '../../common/pagination/paginate-sql.js';
import { SqlParams } from '../../database/sql-params.js';
import type { TraceRow } from './dto/trace.dto.js';

/** Traces live on the interactions rows the messaging turn writes. */
@Injectable()
export class TracesRepository {
  constructor(private readonly sql: SqlService) {}

  ofThread<T>(threadId: string, query: PageQuery, request: PageRequest, toItem: (row: TraceRow) => T): Promise<Page<T>> {
    const params = new SqlParams();
    return paginateSql<TraceRow & Record<string, unknown>, T>(
      this.sql,
      {
        select: 'SELECT i.id, i.thread_id, i.agent_id, i.runtime, i.trace, i.created_at FROM interactions i',
        where: [`i.thread_id = ${params.add(threadId)}`],
        params,
      },
      query,
      {
        sortColumns: { created_at: 'i.created_at' },
        idColumn: 'i.id',
        sortValue: (row) => row.created_at.toISOString(),
        rowId: (row) => row.id,
        defaultSort: 'created_at',
        defaultOrder: 'asc',
      },
      request,
      toItem,
    );
  }

  findInteraction(organizationId: string, interactionId: string): Promise<TraceRow | undefined> {
    return this.sql.one<TraceRow>(
      `SELECT id, thread_id, agent_id, runtime, trace, created_at FROM interactions WHERE id = $1 AND organization_id = $2`,
      [interactionId.toLowerCase(), organizationId],
      'traces_find_interaction',
    );
  }
}
