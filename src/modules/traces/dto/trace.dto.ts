import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { ApiId, IsId } from '../../../common/ids/is-id.decorator.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import type { TraceRow } from '../../conversations/conversations.types.js';

export class InteractionIdParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$' })
  @IsId()
  interactionId: string;
}

/** Optional agent scope: a thread of another agent is 404 `not_found`. */
class AgentScopeQuery {
  @ApiPropertyOptional({
    pattern: '^[0-9a-fA-F]{24}$',
    description: 'Only traces of this agent: a thread of another agent is 404 `not_found`',
  })
  @IsOptional()
  @IsId()
  agent_id?: string;
}

export class ThreadTraceQueryDto extends PageQueryDto(['created_at'] as const, 'created_at', 'asc') {
  @ApiPropertyOptional({
    pattern: '^[0-9a-fA-F]{24}$',
    description: 'Only traces of this agent: a thread of another agent is 404 `not_found`',
  })
  @IsOptional()
  @IsId()
  agent_id?: string;
}

export class InteractionTraceQueryDto extends AgentScopeQuery {
  @ApiPropertyOptional({
    pattern: '^[0-9a-fA-F]{24}$',
    description:
      "The interaction's thread: required for runtime-v2 interactions (422 without it), omitted for runtime v1. Another thread is 404.",
  })
  @IsOptional()
  @IsId()
  thread_id?: string;
}

/**
 * A stored trace (spec "Trace"): the runtime's own sections, selected by `runtime`, plus where it belongs.
 * v1: `input`, `understanding`, `decisions`, `computed_parameters`, `response`, `rules_evaluations`.
 * v2: typed sections including `passages_used`, `citations_used` and `narrative` (docs/engines.md).
 */
export class TraceRecordDto {
  @ApiProperty({ enum: ['v1', 'v2'], description: 'Selects the shape of the other sections' }) runtime: 'v1' | 'v2';
  @ApiId('The interaction (turn) this trace records') interaction_id: string;
  @ApiId() thread_id: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  [section: string]: unknown;
}

export const toTraceRecord = (row: TraceRow): TraceRecordDto => ({
  ...row.trace,
  runtime: (row.trace.runtime as 'v1' | 'v2' | undefined) ?? row.runtime,
  interaction_id: row.id,
  thread_id: row.thread_id,
  created_at: row.created_at.toISOString(),
});
