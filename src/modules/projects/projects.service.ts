import { Injectable } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import { NotFoundError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { deleteAgents } from '../agent-records/agent-deletion.js';
import { AgentsRepository } from '../agent-records/agents.repository.js';
import { CredentialChanges } from '../auth/credential-changes.js';
import type { Principal } from '../auth/principal.js';
import {
  toProjectResponse,
  type CreateProjectDto,
  type ListProjectsQueryDto,
  type ProjectResponseDto,
  type UpdateProjectDto,
} from './dto/project.dto.js';
import type { ProjectEntity } from './project.entity.js';
import { ProjectsRepository } from './projects.repository.js';

@Injectable()
export class ProjectsService {
  constructor(
    private readonly projects: ProjectsRepository,
    private readonly agents: AgentsRepository,
    private readonly bus: EventBus,
    private readonly credentials: CredentialChanges,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async create(who: Principal, dto: CreateProjectDto): Promise<ProjectResponseDto> {
    const project = await this.unitOfWork.run(async () => {
      const created = await this.projects.create({
        id: newId(),
        organizationId: who.organizationId,
        name: dto.name,
        deletedAt: null,
        threadRetentionDays: null,
      });
      await this.bus.publish('project.create', {
        actor: who,
        resourceType: 'project',
        resourceId: created.id,
        after: { name: created.name },
      });
      return created;
    });
    return toProjectResponse(project);
  }

  list(who: Principal, query: ListProjectsQueryDto, request: PageRequest): Promise<Page<ProjectResponseDto>> {
    return this.projects.page(who.organizationId, query, request, toProjectResponse);
  }

  async get(who: Principal, projectId: string): Promise<ProjectResponseDto> {
    return toProjectResponse(await this.getVisible(who.organizationId, projectId));
  }

  /** Renames the project and/or sets its thread retention (`null` keeps threads forever; docs/governance.md). */
  async update(who: Principal, projectId: string, dto: UpdateProjectDto): Promise<ProjectResponseDto> {
    const id = projectId.toLowerCase();
    const changes: { name?: string; threadRetentionDays?: number | null } = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.thread_retention_days !== undefined) changes.threadRetentionDays = dto.thread_retention_days;
    if (Object.keys(changes).length === 0) return toProjectResponse(await this.getVisible(who.organizationId, id));
    const project = await this.unitOfWork.run(async () => {
      const before = await this.getVisible(who.organizationId, id);
      if (!(await this.projects.update(who.organizationId, id, changes))) throw new NotFoundError('Project');
      const after = await this.getVisible(who.organizationId, id);
      await this.bus.publish('project.update', {
        actor: who,
        resourceType: 'project',
        resourceId: id,
        before: { name: before.name, thread_retention_days: before.threadRetentionDays },
        after: { name: after.name, thread_retention_days: after.threadRetentionDays },
      });
      return after;
    });
    return toProjectResponse(project);
  }

  /** Every project with a thread retention (deleted projects included: their threads are still kept data). */
  withRetention(): Promise<Array<{ id: string; organizationId: string; threadRetentionDays: number }>> {
    return this.projects.withRetention();
  }

  /**
   * Deleting leaves listings at once; the row stays so the project's usage history remains countable. Its agents
   * are deleted with it (see deleteAgents): their keys, client tokens and agent-scoped sessions are refused at
   * once on every surface and every instance, and the messaging and events caches drop them (`project.deleted`).
   */
  async delete(who: Principal, projectId: string): Promise<void> {
    await this.credentials.commit(who.organizationId, async () => {
      const project = await this.projects.findVisible(who.organizationId, projectId.toLowerCase());
      if (!project || !(await this.projects.softDelete(who.organizationId, project.id))) throw new NotFoundError('Project');
      const changes = await deleteAgents({ agents: this.agents, bus: this.bus }, who.organizationId, { projectId: project.id });
      await this.bus.publish('project.delete', {
        actor: who,
        resourceType: 'project',
        resourceId: project.id,
        before: { name: project.name, deleted_agent_ids: changes.map((change) => change.agentId) },
      });
      const agentIds = changes.map((change) => change.agentId);
      await this.bus.publish('project.deleted', { organizationId: who.organizationId, projectId: project.id, agentIds });
    });
  }

  /** The caller's live project, or 404 — never 403, so other tenants' ids cannot be probed. */
  async getVisible(organizationId: string, projectId: string): Promise<ProjectEntity> {
    const project = await this.projects.findVisible(organizationId, projectId.toLowerCase());
    if (!project) throw new NotFoundError('Project');
    return project;
  }
}
