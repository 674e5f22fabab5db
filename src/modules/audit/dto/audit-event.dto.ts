import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { ApiId, IsId } from '../../../common/ids/is-id.decorator.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { CharLength } from '../../../common/validation/char-length.js';
import { DATE_TIME_EXAMPLE, IsDateTime } from '../../../common/validation/date-time.js';
import type { AuditEventEntity } from '../audit-event.entity.js';
import { ACTOR_KINDS } from '../audit.types.js';

export const AUDIT_SORT_FIELDS = ['created_at'] as const;

/** Names as the service writes them: lowercase words joined by `_`, and `.` between resource and verb. */
const NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;

/** Filters combine with AND; the time range is `[created_from, created_to)`. */
export class ListAuditEventsQueryDto extends PageQueryDto(AUDIT_SORT_FIELDS, 'created_at', 'desc') {
  @ApiPropertyOptional({ example: 'version', description: 'Records of this resource type (`project`, `agent`, `version`, …)' })
  @IsOptional()
  @IsString()
  @CharLength(1, 50)
  @Matches(NAME, { message: 'resource_type must be a resource type such as project or version' })
  resource_type?: string;

  @ApiPropertyOptional({ example: '6743a1f0c2b9e4d5a6f70812', description: 'Records of this resource (its id)' })
  @IsOptional()
  @IsString()
  @CharLength(1, 100)
  @Matches(/^[A-Za-z0-9._:-]+$/, { message: 'resource_id must be a resource id' })
  resource_id?: string;

  @ApiPropertyOptional({ description: "Records of this actor: a key's id, or a user's id for login sessions" })
  @IsOptional()
  @IsString()
  @CharLength(1, 100)
  @Matches(/^[A-Za-z0-9._:-]+$/, { message: 'actor_id must be a key id or a user id' })
  actor_id?: string;

  @ApiPropertyOptional({ example: 'version.publish', description: 'Records of this action (`<resource>.<verb>`)' })
  @IsOptional()
  @IsString()
  @CharLength(1, 100)
  @Matches(NAME, { message: 'action must be an action such as version.publish' })
  action?: string;

  @ApiPropertyOptional({ format: 'date-time', example: DATE_TIME_EXAMPLE, description: 'RFC 3339: records made at or after this instant' })
  @IsOptional()
  @IsDateTime()
  created_from?: string;

  @ApiPropertyOptional({ format: 'date-time', example: '2026-02-01T00:00:00Z', description: 'RFC 3339: records made before this instant' })
  @IsOptional()
  @IsDateTime()
  created_to?: string;
}

export class AuditEventIdParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of an audit record of your organization' })
  @IsId()
  auditEventId: string;
}

export class AuditEventResponseDto {
  @ApiId('Audit record id') id: string;
  @ApiProperty({ format: 'date-time', description: 'When the change committed (its transaction)' }) created_at: string;
  @ApiProperty({ enum: ACTOR_KINDS, example: 'org_api_key', description: 'The credential that made the change' }) actor_kind: string;
  @ApiProperty({ example: '6743a1f0c2b9e4d5a6f70811', description: "The credential's id: the key id, or the user id of a login session" })
  actor_id: string;
  @ApiProperty({ type: String, nullable: true, description: 'The user of a login session, else null' }) actor_user_id: string | null;
  @ApiProperty({ example: 'version.publish', description: '`<resource>.<verb>`' }) action: string;
  @ApiProperty({ example: 'version', description: 'The kind of resource changed (`project`, `agent`, `version`, `publishable_key`, …)' })
  resource_type: string;
  @ApiProperty({ example: '6743a1f0c2b9e4d5a6f70812', description: 'The id of the resource changed' }) resource_id: string;
  @ApiProperty({ type: String, nullable: true, description: 'The x-request-id of the request that made the change' }) request_id:
    string | null;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true, description: 'Summary of the state before (null on create)' })
  before: Record<string, unknown> | null;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true, description: 'Summary of the state after (null on delete)' })
  after: Record<string, unknown> | null;
}

export const toAuditEventResponse = (e: AuditEventEntity): AuditEventResponseDto => ({
  id: e.id,
  created_at: e.createdAt.toISOString(),
  actor_kind: e.actorKind,
  actor_id: e.actorId,
  actor_user_id: e.actorUserId,
  action: e.action,
  resource_type: e.resourceType,
  resource_id: e.resourceId,
  request_id: e.requestId,
  before: e.before as Record<string, unknown> | null,
  after: e.after as Record<string, unknown> | null,
});
