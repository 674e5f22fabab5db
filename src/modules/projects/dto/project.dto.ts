import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, Min, ValidateIf } from 'class-validator';
import { ApiId, IsId } from '../../../common/ids/is-id.decorator.js';
import { CharLength } from '../../../common/validation/char-length.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import type { ProjectEntity } from '../project.entity.js';

export class CreateProjectDto {
  @ApiProperty({ minLength: 2, maxLength: 100, example: 'Storefront', description: 'Display name, 2..100 characters' })
  @IsString()
  @CharLength(2, 100)
  name: string;
}

export const MAX_THREAD_RETENTION_DAYS = 3650;

export class UpdateProjectDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 100, example: 'Storefront EU', description: 'New display name, 2..100 characters' })
  @ValidateIf((o: UpdateProjectDto) => o.name !== undefined)
  @IsString()
  @CharLength(2, 100)
  name?: string;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: MAX_THREAD_RETENTION_DAYS,
    example: 30,
    description:
      "Delete the project's threads once their last activity is older than this many days (1..3650); null keeps them forever. Usage totals are kept.",
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_THREAD_RETENTION_DAYS)
  thread_retention_days?: number | null;
}

export class ProjectIdParams {
  @ApiProperty({ pattern: '^[0-9a-fA-F]{24}$', description: 'Id of a project of your organization' })
  @IsId()
  projectId: string;
}

export const PROJECT_SORT_FIELDS = ['created_at', 'updated_at', 'name'] as const;

export class ListProjectsQueryDto extends PageQueryDto(PROJECT_SORT_FIELDS, 'created_at', 'desc') {}

export class ProjectResponseDto {
  @ApiId('Project id') id: string;
  @ApiProperty({ example: 'Storefront', description: 'Display name' }) name: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: null,
    description: 'Threads idle longer than this many days are deleted; null keeps them forever',
  })
  thread_retention_days: number | null;
  @ApiProperty({ format: 'date-time', description: 'When the project was created' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: 'When the project last changed' }) updated_at: string;
}

export const toProjectResponse = (project: ProjectEntity): ProjectResponseDto => ({
  id: project.id,
  name: project.name,
  thread_retention_days: project.threadRetentionDays ?? null,
  created_at: project.createdAt.toISOString(),
  updated_at: project.updatedAt.toISOString(),
});
