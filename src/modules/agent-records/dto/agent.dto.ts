import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, ValidateIf } from 'class-validator';
import { ApiId, IsId } from '../../../common/ids/is-id.decorator.js';
import { CharLength, MaxChars } from '../../../common/validation/char-length.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import type { AgentRuntime } from '../../bundles/bundle.types.js';
import type { AgentEntity } from '../agent.entity.js';

export const AGENT_RUNTIMES = ['v1', 'v2'] as const;

export class AgentIdParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of an agent of your organization' })
  @IsId()
  agentId: string;
}

export class CreateAgentDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Store assistant', description: 'Display name' })
  @IsString()
  @CharLength(1, 100)
  name: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 2000,
    description: 'Free text for your team',
    example: 'Answers shoppers on the web store',
  })
  @IsOptional()
  @IsString()
  @MaxChars(2000)
  description?: string | null;

  @ApiPropertyOptional({ enum: AGENT_RUNTIMES, default: 'v1', description: 'v1: decisioning engine; v2: grounded engine' })
  @IsOptional()
  @IsIn(AGENT_RUNTIMES as unknown as string[])
  runtime?: AgentRuntime;
}

/** Rename (re-publishes the live revision with the new name) and description. */
export class UpdateAgentDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, description: 'New name' })
  @ValidateIf((o: UpdateAgentDto) => o.name !== undefined)
  @IsString()
  @CharLength(1, 100)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000, description: 'null clears it' })
  @IsOptional()
  @IsString()
  @MaxChars(2000)
  description?: string | null;

  @ApiPropertyOptional({
    description:
      'true: a publish or traffic split that would serve a revision without a passing evaluation answers 409 `evaluation_required`',
  })
  @ValidateIf((o: UpdateAgentDto) => o.publish_requires_passing_evaluation !== undefined)
  @IsBoolean()
  publish_requires_passing_evaluation?: boolean;
}

export const AGENT_SORT_FIELDS = ['created_at', 'updated_at', 'name'] as const;

export class ListAgentsQueryDto extends PageQueryDto(AGENT_SORT_FIELDS, 'created_at', 'desc') {
  @ApiPropertyOptional({ name: 'filters[name]', type: String, description: 'Case-insensitive substring of the name' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))
  @IsString()
  @MaxChars(100)
  'filters[name]'?: string;
}

export class AgentResponseDto {
  @ApiId('Agent id') id: string;
  @ApiId('The project the agent belongs to') project_id: string;
  @ApiProperty({ example: 'Store assistant', description: 'Display name' }) name: string;
  @ApiProperty({ type: String, nullable: true, description: 'Free text for your team' }) description: string | null;
  @ApiProperty({ enum: AGENT_RUNTIMES, description: 'Engine generation: v1 decisioning, v2 grounded' }) runtime: AgentRuntime;
  @ApiProperty({ type: String, nullable: true, description: 'The live version; null until a publish' }) live_version_id: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'v3.2', description: 'The live revision tag; null until a publish' })
  live_version_tag: string | null;
  @ApiProperty({ description: 'Publishing needs a passing evaluation of the revision (docs/evaluations.md)' })
  publish_requires_passing_evaluation: boolean;
  @ApiProperty({ format: 'date-time', description: 'When the agent was created' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: 'When the agent last changed' }) updated_at: string;
}

export const toAgentResponse = (a: AgentEntity): AgentResponseDto => ({
  id: a.id,
  project_id: a.projectId,
  name: a.name,
  description: a.description,
  runtime: a.runtime,
  live_version_id: a.liveVersionId,
  live_version_tag: a.liveVersionTag,
  publish_requires_passing_evaluation: a.publishRequiresPassingEvaluation,
  created_at: a.createdAt.toISOString(),
  updated_at: a.updatedAt.toISOString(),
});
