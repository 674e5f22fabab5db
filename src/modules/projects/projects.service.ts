import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { EventBus } from '../../common/bus/event-bus.js';
import { NotFoundError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import { paginate, type PageRequest } from '../../common/pagination/paginate.js';
import { deleteAgents } from '../agents/agent-queries.js';
import { CredentialChanges } from '../auth/credential-changes.js';
import type { Principal } from '../auth/principal.js';
import { VersionsService } from '../versions/versions.service.js';
import { ListProjectsQueryDto, toProjectResponse, type CreateProjectDto, type ProjectResponseDto } from './dto/project.dto.js';
import { ProjectEntity } from './project.entity.js';

const SORT_COLUMNS: Record<string, string> = { created_at: 'p.created_at', updated_at: 'p.updated_at', name: 'p.name' };
const SORT_VALUE: Record<string, (p: ProjectEntity) => string> = {
  created_at: (p) => p.createdAt.toISOString(),
  updated_at: (p) => p.updatedAt.toISOString(),
  name: (p) => p.name,
};

@Injectable()
export class ProjectsService {
  constructor(
    @InjectRepository(ProjectEntity) private readonly projects: Repository<ProjectEntity>,
    private readonly versions: VersionsService,
    private readonly bus: EventBus,
    private readonly credentials: CredentialChanges,
  ) {}

  async create(who: Principal, dto: CreateProjectDto): Promise<ProjectResponseDto> {
    const project = await this.projects.save({ id: newId(), organizationId: who.organizationId, name: dto.name, deletedAt: null });
    return toProjectResponse(project);
  }

  list(who: Principal, query: ListProjectsQueryDto, request: PageRequest): Promise<Page<ProjectResponseDto>> {
    const qb = this.projects
      .createQueryBuilder('p')
      .where('p.organization_id = :organizationId AND p.deleted_at IS NULL', { organizationId: who.organizationId });
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
      toProjectResponse,
    );
  }

  async get(who: Principal, projectId: string): Promise<ProjectResponseDto> {
    return toProjectResponse(await this.getVisible(who.organizationId, projectId));
  }

  /**
   * Deleting leaves listings at once; the row stays so the project's usage history remains countable. Its agents
   * are deleted with it (see deleteAgents): their keys, client tokens and agent-scoped sessions are refused at
   * once on every surface and every instance, and the messaging and events caches drop them (`project.deleted`).
   */
  async delete(who: Principal, projectId: string): Promise<void> {
    const deleted = await this.credentials.commit(who.organizationId, async (em) => {
      const result = await em
        .getRepository(ProjectEntity)
        .update({ id: projectId.toLowerCase(), organizationId: who.organizationId, deletedAt: IsNull() }, { deletedAt: new Date() });
      if (!result.affected) throw new NotFoundError('Project');
      return deleteAgents(em, this.versions, who.organizationId, { projectId: projectId.toLowerCase() });
    });
    const agentIds = deleted.map((change) => change.agentId);
    this.bus.emit('project.deleted', { organizationId: who.organizationId, projectId: projectId.toLowerCase(), agentIds });
  }

  /** The caller's live project, or 404 — never 403, so other tenants' ids cannot be probed. */
  async getVisible(organizationId: string, projectId: string): Promise<ProjectEntity> {
    const project = await this.projects.findOneBy({ id: projectId.toLowerCase(), organizationId, deletedAt: IsNull() });
    if (!project) throw new NotFoundError('Project');
    return project;
  }
}
