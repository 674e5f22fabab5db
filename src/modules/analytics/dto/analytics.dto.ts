import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsDateTime } from '../../../common/validation/date-time.js';

export const ANALYTICS_GROUPS = ['version_tag', 'arm', 'day'] as const;
export type AnalyticsGroupBy = (typeof ANALYTICS_GROUPS)[number];

/** The report's range and grouping; the roll-up is daily, so the range counts whole UTC days. */
export class AnalyticsQueryDto {
  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-01T00:00:00Z', description: 'From the UTC day of this instant (RFC 3339)' })
  @IsOptional()
  @IsDateTime({ message: 'created_from must be an RFC 3339 date-time such as 2026-11-01T00:00:00Z' })
  created_from?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-30T23:59:59Z', description: 'To the UTC day of this instant, inclusive' })
  @IsOptional()
  @IsDateTime({ message: 'created_to must be an RFC 3339 date-time such as 2026-11-30T23:59:59Z' })
  created_to?: string;

  @ApiPropertyOptional({
    enum: ANALYTICS_GROUPS,
    default: 'version_tag',
    description: 'version_tag: per revision; arm: per version (a traffic-split arm, all its revisions); day: per UTC day',
  })
  @IsOptional()
  @IsIn(ANALYTICS_GROUPS as unknown as string[], { message: 'group_by must be one of: version_tag, arm, day' })
  group_by?: AnalyticsGroupBy;
}

export class AnalyticsGroupDto {
  @ApiProperty({ example: 'v2.1', description: 'The group: a revision tag, a version id (arm) or a UTC date (YYYY-MM-DD)' }) key: string;
  @ApiProperty({ type: String, nullable: true, description: 'arm: the version id; null for the other groupings' }) version_id:
    string | null;
  @ApiProperty({ type: [String], example: ['v2.0', 'v2.1'], description: 'The revision tags counted in this group' })
  version_tags: string[];
  @ApiProperty({ type: 'integer', description: 'Threads whose first turn falls in this group' }) threads: number;
  @ApiProperty({ type: 'integer', description: 'Agent replies (turns)' }) messages: number;
  @ApiProperty({ type: 'integer', description: 'Threads neither handed off nor ending on a decline' }) contained: number;
  @ApiProperty({ type: 'integer', description: 'Threads handed off to a human' }) handed_off: number;
  @ApiProperty({ type: 'integer', description: 'Threads whose last agent reply declined' }) declined: number;
  @ApiProperty({ type: Number, nullable: true, example: 0.82, description: 'contained / threads; null without threads' })
  containment_rate: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 0.05, description: 'handed_off / threads' }) handoff_rate: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 0.13, description: 'declined / threads' }) decline_rate: number | null;
  @ApiProperty({ type: 'integer', description: 'Messages rated up (latest ratings)' }) feedback_up: number;
  @ApiProperty({ type: 'integer', description: 'Messages rated down (latest ratings)' }) feedback_down: number;
  @ApiProperty({ type: Number, nullable: true, example: 140, description: 'Median reply latency, ms (from a fixed-bucket histogram)' })
  latency_p50_ms: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 420, description: '95th percentile reply latency, ms (same histogram)' })
  latency_p95_ms: number | null;
  @ApiProperty({ type: 'integer', description: 'Prompt tokens of the turns' }) input_tokens: number;
  @ApiProperty({ type: 'integer', description: 'Completion tokens of the turns' }) output_tokens: number;
}

export class AnalyticsDto {
  @ApiProperty({ example: '6740a1b2c3d4e5f601234567', description: 'The agent' }) agent_id: string;
  @ApiProperty({ enum: ANALYTICS_GROUPS, description: 'How the groups are keyed' }) group_by: AnalyticsGroupBy;
  @ApiProperty({ type: String, nullable: true, format: 'date', description: 'First UTC day counted; null: from the start' }) from_day:
    string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date', description: 'Last UTC day counted; null: up to now' }) to_day:
    string | null;
  @ApiProperty({ type: [AnalyticsGroupDto], description: 'Groups in key order' }) groups: AnalyticsGroupDto[];
}
