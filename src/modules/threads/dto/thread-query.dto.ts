import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsOptional, IsString, Matches } from 'class-validator';
import { IsId } from '../../../common/ids/is-id.decorator.js';
import { CharLength } from '../../../common/validation/char-length.js';
import { IsDateTime } from '../../../common/validation/date-time.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { PARAM_FILTER_PATTERN, type ThreadListFilter } from '../../conversations/thread-list-filter.js';

/** A repeatable query parameter arrives as a string once and as an array when repeated. */
const toArray = ({ value }: { value: unknown }) => (value === undefined ? undefined : Array.isArray(value) ? value : [value]);

export const RUNTIME_VERSION_PATTERN = /^\d{1,9}(\.\d{1,9}){0,2}$/;
export const RULE_FILTER_PATTERN = /^[A-Za-z0-9_.-]{1,100}(:(fired|blocked|passed))?$/;

/** `runtime_version`: `1` (the default) reads runtime-v1 threads; any other build (`2`, `2.1.0`) reads runtime-v2 threads. */
export class RuntimeVersionQueryDto {
  @ApiPropertyOptional({
    type: String,
    default: '1',
    example: '2',
    description:
      '`1` (default): threads of agents on the v1 runtime. Any other version (`2`, a dotted build such as `2.1.0`): runtime-v2 threads.',
  })
  @IsOptional()
  @IsString()
  @Matches(RUNTIME_VERSION_PATTERN, { message: 'runtime_version must be a version such as 1, 2 or 2.1.0' })
  runtime_version?: string;
}

export class ThreadIdParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of a thread of your organization' })
  @IsId()
  threadId: string;
}

export const THREAD_SORT_FIELDS = ['created_at'] as const;

/**
 * Thread list filters (docs/threads.md). Repeatable filters combine
 * with OR within the field; different fields combine with AND.
 */
export class ListThreadsQueryDto extends PageQueryDto(THREAD_SORT_FIELDS, 'created_at', 'desc') implements ThreadListFilter {
  @ApiPropertyOptional({ pattern: '^[0-9a-fA-F]{24}$', description: 'Threads of this project' })
  @IsOptional()
  @IsId()
  project_id?: string;

  @ApiPropertyOptional({ description: 'Threads of this end user (the `user_id` of the sends)' })
  @IsOptional()
  @IsString()
  @CharLength(1, 255)
  user_id?: string;

  @ApiPropertyOptional({ description: "The caller's own conversation id (events webhook `thread_id`, channel conversations)" })
  @IsOptional()
  @IsString()
  @CharLength(1, 255)
  external_id?: string;

  @ApiPropertyOptional({
    type: [String],
    format: 'date-time',
    maxItems: 2,
    description: 'Repeatable, RFC 3339. One value: created at or after it. Two values: the inclusive range [start, end].',
  })
  @IsOptional()
  @Transform(toArray)
  @ArrayMaxSize(2, { message: 'created takes at most two values: start and end' })
  @IsDateTime({ each: true, message: 'created must be RFC 3339 date-times such as 2026-01-31T00:00:00Z' })
  created?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Repeatable: threads where one of these tools (capability codes) was activated' })
  @IsOptional()
  @Transform(toArray)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @CharLength(1, 100, { each: true })
  tool?: string[];

  @ApiPropertyOptional({
    type: [String],
    example: ['over_budget:blocked'],
    description:
      'Repeatable: `code` (the rule was evaluated), `code:fired` (it triggered), `code:blocked` (it triggered a block), `code:passed` (evaluated, not triggered)',
  })
  @IsOptional()
  @Transform(toArray)
  @ArrayMaxSize(20)
  @Matches(RULE_FILTER_PATTERN, { each: true, message: 'rule must be code, code:fired, code:blocked or code:passed' })
  rule?: string[];

  @ApiPropertyOptional({
    type: [String],
    example: ['budget>=50', 'color:blue', 'size:*'],
    description:
      'Repeatable: `key:value` (equal; numbers and booleans match their JSON value too), `key:*` (present), or `key>=n`, `key>n`, `key<=n`, `key<n` (numeric comparison)',
  })
  @IsOptional()
  @Transform(toArray)
  @ArrayMaxSize(20)
  @Matches(PARAM_FILTER_PATTERN, { each: true, message: 'param must be key:value, key:*, or key>=n, key>n, key<=n, key<n with a number n' })
  param?: string[];

  @ApiPropertyOptional({
    type: [String],
    example: ['v2.1'],
    description:
      'Repeatable: threads whose latest turn was answered by this revision tag (`vN.R`) — with a traffic split, the arm the thread is on',
  })
  @IsOptional()
  @Transform(toArray)
  @ArrayMaxSize(20)
  @Matches(/^v\d{1,9}\.\d{1,9}$/, { each: true, message: 'version_tag must be a revision tag such as v2.1' })
  version_tag?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Repeatable: threads of these agents (24 hex)' })
  @IsOptional()
  @Transform(toArray)
  @ArrayMaxSize(50)
  @IsId({ each: true })
  agent_id?: string[];

  @ApiPropertyOptional({
    type: String,
    default: '1',
    example: '2',
    description:
      '`1` (default): runtime-v1 threads. Any other version (`2`, `2.1.0`): runtime-v2 threads, which requires `agent_id` or `user_id`.',
  })
  @IsOptional()
  @IsString()
  @Matches(RUNTIME_VERSION_PATTERN, { message: 'runtime_version must be a version such as 1, 2 or 2.1.0' })
  runtime_version?: string;
}

export class RenameThreadDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Trail shoes under $100', description: 'The new title' })
  @IsString()
  @CharLength(1, 200)
  title: string;
}

export const MESSAGE_SORT_FIELDS = ['created_at'] as const;

/** Transcript: oldest first by default. */
export class ListMessagesQueryDto extends PageQueryDto(MESSAGE_SORT_FIELDS, 'created_at', 'asc') {
  @ApiPropertyOptional({ type: String, default: '1', description: 'Runtime selector, as on the thread list' })
  @IsOptional()
  @IsString()
  @Matches(RUNTIME_VERSION_PATTERN, { message: 'runtime_version must be a version such as 1, 2 or 2.1.0' })
  runtime_version?: string;
}
