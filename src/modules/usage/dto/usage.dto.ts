import type { UsageSums } from '../../conversations/conversations.types.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsId } from '../../../common/ids/is-id.decorator.js';
import { IsDateTime } from '../../../common/validation/date-time.js';

export class AgentIdParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of an agent of your organization' })
  @IsId()
  agentId: string;
}

export class ProjectUsageParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of a project of your organization' })
  @IsId()
  projectId: string;
}

/** Interactions created in [created_from, created_to], both inclusive and optional. */
export class UsageQueryDto {
  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-01T00:00:00Z',
    description: 'Interactions created at or after this instant (RFC 3339)',
  })
  @IsOptional()
  @IsDateTime({ message: 'created_from must be an RFC 3339 date-time such as 2026-11-01T00:00:00Z' })
  created_from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-30T23:59:59.999Z',
    description: 'Interactions created at or before this instant (RFC 3339)',
  })
  @IsOptional()
  @IsDateTime({ message: 'created_to must be an RFC 3339 date-time such as 2026-11-30T23:59:59Z' })
  created_to?: string;

  @ApiPropertyOptional({
    enum: ['version_tag'],
    description: 'version_tag: also break the sums down by the revision tag that answered (`by_version`), e.g. per traffic-split arm',
  })
  @IsOptional()
  @IsIn(['version_tag'], { message: 'group_by must be version_tag' })
  group_by?: 'version_tag';
}

/** Spec "Usage". */
export class UsageDto {
  @ApiProperty({ type: 'integer', description: 'Billed interactions, one per interaction' }) interaction_count: number;
  @ApiProperty({ type: 'integer', description: 'Prompt tokens' }) input_tokens: number;
  @ApiProperty({ type: 'integer', description: 'Completion tokens' }) output_tokens: number;
  @ApiProperty({ type: 'integer', description: 'Cached (read) input tokens' }) cache_read_tokens: number;
  @ApiProperty({ type: 'integer', description: 'Reasoning tokens (models that report them)' }) reasoning_tokens: number;
  @ApiProperty({ type: 'integer', description: 'input + output + cache-read + reasoning tokens' }) total_tokens: number;
}

/** The usage of one revision tag. */
export class VersionUsageDto extends UsageDto {
  @ApiProperty({ example: 'v2.1', description: 'The revision tag (`vN.R`) that answered these interactions' }) version_tag: string;
}

/** Usage, broken down by version when asked (`group_by=version_tag`). */
export class GroupedUsageDto extends UsageDto {
  @ApiPropertyOptional({
    type: [VersionUsageDto],
    description: 'With group_by=version_tag: the sums per revision tag, most interactions first; they add up to the totals',
  })
  by_version?: VersionUsageDto[];
}

export function toUsage(sums: UsageSums): UsageDto {
  const n = (value: string | number | null) => Number(value ?? 0);
  const usage = {
    interaction_count: n(sums.interaction_count),
    input_tokens: n(sums.input_tokens),
    output_tokens: n(sums.output_tokens),
    cache_read_tokens: n(sums.cache_read_tokens),
    reasoning_tokens: n(sums.reasoning_tokens),
  };
  return { ...usage, total_tokens: usage.input_tokens + usage.output_tokens + usage.cache_read_tokens + usage.reasoning_tokens };
}
