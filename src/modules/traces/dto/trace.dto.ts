import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { ApiId, IsId } from '../../../common/ids/is-id.decorator.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import type { TraceRow } from '../../conversations/conversations.types.js';
import { traceSchema } from '../../runtime/dto/trace.dto.js';
import { V1TraceDto } from '../../runtime/dto/v1-trace.dto.js';
import { V2TraceDto } from '../../runtime/dto/v2-trace.dto.js';

export class InteractionIdParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'An `interaction_id` (from a send response or a transcript)' })
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

/** Where a stored trace belongs: its interaction, its thread, when it was written. */
class TraceOriginDto {
  @ApiId('The interaction (turn) this trace records') interaction_id: string;
  @ApiId('The thread of the interaction') thread_id: string;
  @ApiId('The version that answered (with a traffic split: the arm)') version_id: string;
  @ApiProperty({ example: 'v2.1', description: 'The revision tag that answered (with a traffic split: the arm)' }) version_tag: string;
  @ApiProperty({ format: 'date-time', description: 'When the interaction was recorded' }) created_at: string;
}

/** A stored v1 trace: the decisioning engine's sections plus where the trace belongs. */
export class V1TraceRecordDto extends IntersectionType(V1TraceDto, TraceOriginDto) {}

/** A stored v2 trace: the grounded engine's sections plus where the trace belongs. */
export class V2TraceRecordDto extends IntersectionType(V2TraceDto, TraceOriginDto) {}

/** A stored trace (spec "Trace"): the runtime's own sections, selected by `runtime`, plus where it belongs. */
export type TraceRecordDto = V1TraceRecordDto | V2TraceRecordDto;

/** The OpenAPI schema of a stored trace (oneOf v1/v2, discriminated on `runtime`) and the models it names. */
export const TRACE_RECORD_SCHEMA = {
  schema: traceSchema(V1TraceRecordDto, V2TraceRecordDto),
  models: [V1TraceRecordDto, V2TraceRecordDto],
};

export const toTraceRecord = (row: TraceRow): TraceRecordDto => ({
  ...row.trace,
  interaction_id: row.id,
  thread_id: row.thread_id,
  version_id: row.version_id,
  version_tag: row.version_tag,
  created_at: row.created_at.toISOString(),
});
