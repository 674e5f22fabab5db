import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
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
  @ApiProperty({ format: 'date-time', description: 'When the project was created' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: 'When the project last changed' }) updated_at: string;
}

export const toProjectResponse = (project: ProjectEntity): ProjectResponseDto => ({
  id: project.id,
  name: project.name,
  created_at: project.createdAt.toISOString(),
  updated_at: project.updatedAt.toISOString(),
});
