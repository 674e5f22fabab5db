import { Injectable } from '@nestjs/common';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageQuery } from '../../common/pagination/page-query.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { byCreatedAt, paginateSql } from '../../common/pagination/paginate-sql.js';
import { SqlParams } from '../../database/sql-params.js';
import { SqlService } from '../../database/sql.service.js';

export type EvaluationStatus = 'queued' | 'running' | 'completed' | 'failed';

/** One turn of a case as it ran: the end-user text, the reply and why it failed (empty: passed). */
export interface TurnOutcome {
  text: string;
  reply: string;
  failures: string[];
}

export interface CaseOutcome {
  test_case_id: string;
  name: string;
  passed: boolean;
  /** Passed in the compared run and fails in this one. */
  regression: boolean;
  turns: TurnOutcome[];
}

export interface Comparison {
  version_id: string;
  version_tag: string;
  evaluation_id: string;
  regressions: Array<{ test_case_id: string; name: string; failures: string[] }>;
  fixed: Array<{ test_case_id: string; name: string }>;
}

export interface EvaluationRow {
  id: string;
  organization_id: string;
  agent_id: string;
  version_id: string;
  revision_id: string;
  version_tag: string;
  digest: string;
  status: EvaluationStatus;
  passed: boolean | null;
  case_count: number;
  passed_count: number;
  cases: CaseOutcome[] | null;
  compared_to: Comparison | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

const COLUMNS = `id, organization_id, agent_id, version_id, revision_id, version_tag, digest, status, passed, case_count, passed_count,
  cases, compared_to, error, created_at, started_at, completed_at`;
/** A list item carries no per-case results (they can be large). */
const SUMMARY_COLUMNS = `e.id, e.organization_id, e.agent_id, e.version_id, e.revision_id, e.version_tag, e.digest, e.status, e.passed,
  e.case_count, e.passed_count, NULL::jsonb AS cases, e.compared_to, e.error, e.created_at, e.started_at, e.completed_at`;

/** The `evaluations` table: the only place it is named (migrations aside). */
@Injectable()
export class EvaluationsRepository {
  constructor(private readonly sql: SqlService) {}

  async create(
    row: Pick<EvaluationRow, 'id' | 'organization_id' | 'agent_id' | 'version_id' | 'revision_id' | 'version_tag' | 'digest'>,
  ): Promise<EvaluationRow> {
    return (await this.sql.one<EvaluationRow>(
      `INSERT INTO evaluations (id, organization_id, agent_id, version_id, revision_id, version_tag, digest)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [row.id, row.organization_id, row.agent_id, row.version_id, row.revision_id, row.version_tag, row.digest],
    ))!;
  }

  find(organizationId: string, versionId: string, evaluationId: string): Promise<EvaluationRow | undefined> {
    return this.sql.one<EvaluationRow>(
      `SELECT ${COLUMNS} FROM evaluations WHERE id = $1 AND version_id = $2 AND organization_id = $3`,
      [evaluationId.toLowerCase(), versionId, organizationId],
      'evaluations_find',
    );
  }

  /** A version's runs, newest first by default. */
  page<T>(
    organizationId: string,
    versionId: string,
    query: PageQuery,
    request: PageRequest,
    toItem: (row: EvaluationRow) => T,
  ): Promise<Page<T>> {
    const params = new SqlParams();
    return paginateSql<EvaluationRow & Record<string, unknown>, T>(
      this.sql,
      {
        select: `SELECT ${SUMMARY_COLUMNS} FROM evaluations e`,
        where: [`e.version_id = ${params.add(versionId)}`, `e.organization_id = ${params.add(organizationId)}`],
        params,
      },
      query,
      byCreatedAt('e', 'desc'),
      request,
      toItem,
    );
  }

  /** Marks a queued (or interrupted: a retried job) run as running; undefined when it is finished or gone. */
  claim(evaluationId: string): Promise<EvaluationRow | undefined> {
    return this.sql.one<EvaluationRow>(
      `UPDATE evaluations SET status = 'running', started_at = now()
        WHERE id = $1 AND status IN ('queued', 'running') RETURNING ${COLUMNS}`,
      [evaluationId],
    );
  }

  async complete(
    evaluationId: string,
    result: { passed: boolean; passedCount: number; cases: CaseOutcome[]; comparedTo: Comparison | null; error: string | null },
  ): Promise<void> {
    await this.sql.rows(
      `UPDATE evaluations SET status = 'completed', passed = $2, case_count = $3, passed_count = $4, cases = $5::jsonb,
              compared_to = $6::jsonb, error = $7, completed_at = now()
        WHERE id = $1 AND status = 'running'`,
      [
        evaluationId,
        result.passed,
        result.cases.length,
        result.passedCount,
        JSON.stringify(result.cases),
        result.comparedTo && JSON.stringify(result.comparedTo),
        result.error,
      ],
    );
  }

  async fail(evaluationId: string, error: string): Promise<void> {
    await this.sql.rows(
      `UPDATE evaluations SET status = 'failed', passed = false, error = $2, completed_at = now() WHERE id = $1 AND status <> 'completed'`,
      [evaluationId, error],
    );
  }

  /** The version's newest completed run other than `exceptId` (what a run of another version is compared with). */
  latestCompletedOfVersion(versionId: string, exceptId: string): Promise<EvaluationRow | undefined> {
    return this.sql.one<EvaluationRow>(
      `SELECT ${COLUMNS} FROM evaluations
        WHERE version_id = $1 AND id <> $2 AND status = 'completed' ORDER BY created_at DESC, id DESC LIMIT 1`,
      [versionId, exceptId],
      'evaluations_latest_of_version',
    );
  }

  /** Whether the newest completed run of this content (digest) for the agent passed; undefined: never evaluated. */
  async latestVerdict(agentId: string, digest: string): Promise<{ id: string; passed: boolean } | undefined> {
    return this.sql.one<{ id: string; passed: boolean }>(
      `SELECT id, passed FROM evaluations
        WHERE agent_id = $1 AND digest = $2 AND status = 'completed' ORDER BY created_at DESC, id DESC LIMIT 1`,
      [agentId, digest],
      'evaluations_latest_verdict',
    );
  }
}
