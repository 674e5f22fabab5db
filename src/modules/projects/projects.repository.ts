import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import type { Page } from '../../common/pagination/page.dto.js';
import { paginate, type PageRequest } from '../../common/pagination/paginate.js';
import { SqlService } from '../../database/sql.service.js';
import { ListProjectsQueryDto } from './dto/project.dto.js';
import { ProjectEntity } from './project.entity.js';

const SORT_COLUMNS: Record<string, string> = { created_at: 'p.created_at', updated_at: 'p.updated_at', name: 'p.name' };
const SORT_VALUE: Record<string, (p: ProjectEntity) => string> = {
  created_at: (p) => p.createdAt.toISOString(),
  updated_at: (p) => p.updatedAt.toISOString(),
  name: (p) => p.name,
};

/** The `projects` table. */
@Injectable()
export class ProjectsRepository {
  constructor(private readonly sql: SqlService) {}

  create(project: Omit<ProjectEntity, 'createdAt' | 'updatedAt'>): Promise<ProjectEntity> {
    return this.sql.repository(ProjectEntity).save(project);
  }

  page<R>(
    organizationId: string,
    query: ListProjectsQueryDto,
    request: PageRequest,
    toItem: (project: ProjectEntity) => R,
  ): Promise<Page<R>> {
    const qb = this.sql
      .repository(ProjectEntity)
      .createQueryBuilder('p')
      .where('p.organization_id = :organizationId AND p.deleted_at IS NULL', { organizationId });
    return paginate(
      qb,
      query,
      {
        sortColumns: SORT_COLUMNS,
        idColumn: 'p.id',
        sortValue: (p, sortBy) => SORT_VALUE[sortBy]!(p),
        rowId: (p) => p.id,
        defaultSort: ListProjectsQueryDto.defaultSort,
        defaultOrder: ListProjectsQueryDto.defaultOrder,
      },
      request,
      toItem,
    );
  }

  findVisible(organizationId: string, projectId: string): Promise<ProjectEntity | null> {
    return this.sql.repository(ProjectEntity).findOneBy({ id: projectId, organizationId, deletedAt: IsNull() });
  }

  /** Changes the organization's live project; false when it has none with this id. */
  async update(
    organizationId: string,
    projectId: string,
    changes: Partial<Pick<ProjectEntity, 'name' | 'threadRetentionDays'>>,
  ): Promise<boolean> {
    const result = await this.sql
      .repository(ProjectEntity)
      .update({ id: projectId, organizationId, deletedAt: IsNull() }, { ...changes, updatedAt: new Date() });
    return Boolean(result.affected);
  }

  /** Projects with a thread retention (deleted ones included: their threads are still kept data), for the job. */
  withRetention(): Promise<Array<{ id: string; organizationId: string; threadRetentionDays: number }>> {
    return this.sql.rows<{ id: string; organizationId: string; threadRetentionDays: number }>(
      `SELECT id, organization_id AS "organizationId", thread_retention_days AS "threadRetentionDays"
         FROM projects WHERE thread_retention_days IS NOT NULL ORDER BY id`,
      [],
      'projects_with_retention',
    );
  }

  /** Marks the organization's live project deleted; false when it has none with this id. */
  async softDelete(organizationId: string, projectId: string): Promise<boolean> {
    const result = await this.sql
      .repository(ProjectEntity)
      .update({ id: projectId, organizationId, deletedAt: IsNull() }, { deletedAt: new Date() });
    return Boolean(result.affected);
  }
}
