import { ApiProperty } from '@nestjs/swagger';
import { IsId, ApiId } from '../../../common/ids/is-id.decorator.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import type { EvaluationRow, EvaluationStatus } from '../evaluations.repository.js';

const STATUSES = ['queued', 'running', 'completed', 'failed'] as const;

export class EvaluationParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of an agent of your organization' })
  @IsId()
  agentId: string;

  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of a version of that agent' })
  @IsId()
  versionId: string;
}

export class EvaluationIdParams extends EvaluationParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of an evaluation of that version' })
  @IsId()
  evaluationId: string;
}

export class ListEvaluationsQueryDto extends PageQueryDto(['created_at'] as const, 'created_at', 'desc') {}

export class EvaluationAcceptedDto {
  @ApiId('Evaluation id') id: string;
  @ApiProperty({ enum: STATUSES, example: 'queued', description: 'Always queued: the run waits for a worker' }) status: EvaluationStatus;
}

export class TurnResultDto {
  @ApiProperty({ description: 'The end-user message of this turn' }) text: string;
  @ApiProperty({ description: 'What the revision answered' }) reply: string;
  @ApiProperty({ type: [String], description: 'Why the reply failed its expectation, one reason per check; empty: passed' })
  failures: string[];
}

export class CaseResultDto {
  @ApiId('The test case') test_case_id: string;
  @ApiProperty({ description: "The case's name when the run started" }) name: string;
  @ApiProperty({ description: 'Every turn met its expectation' }) passed: boolean;
  @ApiProperty({ description: 'Passed in the compared run (compared_to) and fails in this one' }) regression: boolean;
  @ApiProperty({ type: [TurnResultDto], description: 'The turns that ran, in order (a turn the engine could not answer ends the case)' })
  turns: TurnResultDto[];
}

export class RegressionDto {
  @ApiId('The test case') test_case_id: string;
  @ApiProperty({ description: "The case's name" }) name: string;
  @ApiProperty({ type: [String], description: 'The failure reasons of its turns in this run' }) failures: string[];
}

export class FixedCaseDto {
  @ApiId('The test case') test_case_id: string;
  @ApiProperty({ description: "The case's name" }) name: string;
}

export class ComparisonDto {
  @ApiId('The live version whose latest run this one is compared with') version_id: string;
  @ApiProperty({ example: 'v1.0', description: 'The revision that run evaluated' }) version_tag: string;
  @ApiId('That run') evaluation_id: string;
  @ApiProperty({ type: [RegressionDto], description: 'Cases that passed there and fail here' }) regressions: RegressionDto[];
  @ApiProperty({ type: [FixedCaseDto], description: 'Cases that failed there and pass here' }) fixed: FixedCaseDto[];
}

export class EvaluationResponseDto {
  @ApiId('Evaluation id') id: string;
  @ApiId('The agent') agent_id: string;
  @ApiId('The evaluated version') version_id: string;
  @ApiId('The evaluated revision (the version’s current one when the run was asked for)') revision_id: string;
  @ApiProperty({ example: 'v2.3', description: 'The evaluated revision’s tag' }) version_tag: string;
  @ApiProperty({ example: 'sha256:…', description: 'The evaluated bundle’s digest' }) digest: string;
  @ApiProperty({ enum: STATUSES, description: 'queued → running → completed (or failed: see error)' }) status: EvaluationStatus;
  @ApiProperty({ type: Boolean, nullable: true, description: 'Every case passed; null until the run completes' }) passed: boolean | null;
  @ApiProperty({ type: 'integer', description: 'Cases run' }) case_count: number;
  @ApiProperty({ type: 'integer', description: 'Cases that passed' }) passed_count: number;
  @ApiProperty({
    type: [CaseResultDto],
    description: 'Per case, regressions first, then other failures, then passes (empty in lists and until the run completes)',
  })
  cases: CaseResultDto[];
  @ApiProperty({ type: ComparisonDto, nullable: true, description: "Against the live version's latest other run; null without one" })
  compared_to: ComparisonDto | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the run could not complete (status failed), or why it cannot pass' })
  error: string | null;
  @ApiProperty({ format: 'date-time', description: 'When the run was asked for' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When a worker started it' }) started_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it completed or failed' }) completed_at:
    string | null;
}

export const toEvaluationResponse = (row: EvaluationRow): EvaluationResponseDto => ({
  id: row.id,
  agent_id: row.agent_id,
  version_id: row.version_id,
  revision_id: row.revision_id,
  version_tag: row.version_tag,
  digest: row.digest,
  status: row.status,
  passed: row.passed,
  case_count: row.case_count,
  passed_count: row.passed_count,
  cases: row.cases ?? [],
  compared_to: row.compared_to,
  error: row.error,
  created_at: row.created_at.toISOString(),
  started_at: row.started_at?.toISOString() ?? null,
  completed_at: row.completed_at?.toISOString() ?? null,
});
