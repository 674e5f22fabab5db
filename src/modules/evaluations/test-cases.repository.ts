import { Injectable } from '@nestjs/common';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageQuery } from '../../common/pagination/page-query.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { byCreatedAt, paginateSql } from '../../common/pagination/paginate-sql.js';
import { SqlParams } from '../../database/sql-params.js';
import { SqlService } from '../../database/sql.service.js';
import type { CaseTurn } from './turn-checks.js';

export interface TestCaseRow {
  id: string;
  organization_id: string;
  agent_id: string;
  name: string;
  turns: CaseTurn[];
  created_at: Date;
  updated_at: Date;
}

export interface NewTestCase {
  id: string;
  organizationId: string;
  agentId: string;
  name: string;
  turns: CaseTurn[];
}

const COLUMNS = 'id, organization_id, agent_id, name, turns, created_at, updated_at';

/** The `test_cases` table: the only place it is named (migrations aside). */
@Injectable()
export class TestCasesRepository {
  constructor(private readonly sql: SqlService) {}

  /** Inserts the cases in one statement, in order (their `created_at` keeps that order). */
  insert(cases: NewTestCase[]): Promise<TestCaseRow[]> {
    const params = new SqlParams();
    const rows = cases.map(
      (c, i) =>
        `(${params.add(c.id)}, ${params.add(c.organizationId)}, ${params.add(c.agentId)}, ${params.add(c.name)}, ` +
        `${params.add(JSON.stringify(c.turns))}::jsonb, clock_timestamp() + ${i} * interval '1 millisecond', clock_timestamp() + ${i} * interval '1 millisecond')`,
    );
    return this.sql
      .rows<TestCaseRow>(
        `INSERT INTO test_cases (id, organization_id, agent_id, name, turns, created_at, updated_at) VALUES ${rows.join(', ')} RETURNING ${COLUMNS}`,
        params.values,
      )
      .then((inserted) => cases.map((c) => inserted.find((row) => row.id === c.id)!));
  }

  find(organizationId: string, agentId: string, testCaseId: string): Promise<TestCaseRow | undefined> {
    return this.sql.one<TestCaseRow>(
      `SELECT ${COLUMNS} FROM test_cases WHERE id = $1 AND agent_id = $2 AND organization_id = $3`,
      [testCaseId.toLowerCase(), agentId, organizationId],
      'test_cases_find',
    );
  }

  page<T>(
    organizationId: string,
    agentId: string,
    query: PageQuery,
    request: PageRequest,
    toItem: (row: TestCaseRow) => T,
  ): Promise<Page<T>> {
    const params = new SqlParams();
    return paginateSql<TestCaseRow & Record<string, unknown>, T>(
      this.sql,
      {
        select: `SELECT ${COLUMNS.split(', ')
          .map((c) => `c.${c}`)
          .join(', ')} FROM test_cases c`,
        where: [`c.agent_id = ${params.add(agentId)}`, `c.organization_id = ${params.add(organizationId)}`],
        params,
      },
      query,
      byCreatedAt('c', 'asc'),
      request,
      toItem,
    );
  }

  /** Every case of the agent, oldest first (an evaluation run's and an export's input). */
  all(organizationId: string, agentId: string): Promise<TestCaseRow[]> {
    return this.sql.rows<TestCaseRow>(
      `SELECT ${COLUMNS} FROM test_cases WHERE agent_id = $1 AND organization_id = $2 ORDER BY created_at, id`,
      [agentId, organizationId],
      'test_cases_all',
    );
  }

  update(
    organizationId: string,
    agentId: string,
    testCaseId: string,
    change: { name?: string; turns?: CaseTurn[] },
  ): Promise<TestCaseRow | undefined> {
    return this.sql.one<TestCaseRow>(
      `UPDATE test_cases SET name = COALESCE($4, name), turns = COALESCE($5::jsonb, turns), updated_at = now()
        WHERE id = $1 AND agent_id = $2 AND organization_id = $3
       RETURNING ${COLUMNS}`,
      [testCaseId.toLowerCase(), agentId, organizationId, change.name ?? null, change.turns ? JSON.stringify(change.turns) : null],
      'test_cases_update',
    );
  }

  async delete(organizationId: string, agentId: string, testCaseId: string): Promise<boolean> {
    const rows = await this.sql.rows<{ id: string }>(
      `DELETE FROM test_cases WHERE id = $1 AND agent_id = $2 AND organization_id = $3 RETURNING id`,
      [testCaseId.toLowerCase(), agentId, organizationId],
    );
    return rows.length > 0;
  }

  /** Agent deletion (in its transaction): the agents' cases go with them. */
  async deleteOfAgents(agentIds: string[]): Promise<void> {
    await this.sql.rows(`DELETE FROM test_cases WHERE agent_id = ANY($1::char(24)[])`, [agentIds]);
  }
}
