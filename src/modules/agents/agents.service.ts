import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository, type EntityManager } from 'typeorm';
import { NotFoundError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import { paginate, type PageRequest } from '../../common/pagination/paginate.js';
import type { Principal } from '../auth/principal.js';
import { ProjectsService } from '../projects/projects.service.js';
import { EventBus } from '../../common/bus/event-bus.js';
import { CredentialChanges } from '../auth/credential-changes.js';
import { VersionsService } from '../versions/versions.service.js';
import { AgentEntity } from './agent.entity.js';
import { deleteAgents, findVisibleAgent } from './agent-queries.js';
import { ListAgentsQueryDto, toAgentResponse, type AgentResponseDto, type CreateAgentDto, type UpdateAgentDto } from './dto/agent.dto.js';

const SORT_COLUMNS: Record<string, string> = { created_at: 'a.created_at', updated_at: 'a.updated_at', name: 'a.name' };
const SORT_VALUE: Record<string, (a: AgentEntity) => string> = {
  created_at: (a) => a.createdAt.toISOString(),
  updated_at: (a) => a.updatedAt.toISOString(),
  name: (a) => a.name,
};

@Injectable()
export class AgentsService {
  constructor(
    @InjectRepository(AgentEntity) private readonly agents: Repository<AgentEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly projects: ProjectsService,
    private readonly versions: VersionsService,
    private readonly bus: EventBus,
    private readonly credentials: CredentialChanges,
  ) {}

  /** A new agent has no live version: it answers only once a version is published. */
  async create(who: Principal, projectId: string, dto: CreateAgentDto): Promise<AgentResponseDto> {
    const project = await this.projects.getVisible(who.organizationId, projectId);
    const agent = await this.agents.save({
      id: newId(),
      organizationId: project.organizationId,
      projectId: project.id,
      name: dto.name,
      description: dto.description ?? null,
      runtime: dto.runtime ?? 'v1',
      liveVersionId: null,
      liveRevisionId: null,
      liveVersionTag: null,
      deletedAt: null,
    });
    return toAgentResponse(agent);
  }

  async list(who: Principal, projectId: string, query: ListAgentsQueryDto, request: PageRequest): Promise<Page<AgentResponseDto>> {
    const project = await this.projects.getVisible(who.organizationId, projectId);
    const qb = this.agents
      .createQueryBuilder('a')
      .where('a.project_id = :projectId AND a.organization_id = :organizationId AND a.deleted_at IS NULL', {
        projectId: project.id,
        organizationId: who.organizationId,
      });
    const name = query['filters[name]'];
    if (name) qb.andWhere(`a.name ILIKE :name ESCAPE '\\'`, { name: `%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
    return paginate(
      qb,
      query,
      {
        sortColumns: SORT_COLUMNS,
        idColumn: 'a.id',
        sortValue: (a, sortBy) => SORT_VALUE[sortBy]!(a),
        rowId: (a) => a.id,
        defaultSort: ListAgentsQueryDto.defaultSort,
        defaultOrder: ListAgentsQueryDto.defaultOrder,
      },
      request,
      toAgentResponse,
    );
  }

  async get(who: Principal, agentId: string): Promise<AgentResponseDto> {
    return toAgentResponse(await this.getVisible(who.organizationId, agentId));
  }

  /** Renaming re-publishes the live revision with the new name as a new revision that becomes live (same live version). */
  async update(who: Principal, agentId: string, dto: UpdateAgentDto): Promise<AgentResponseDto> {
    const { agent, change } = await this.dataSource.transaction(async (em) => {
      const agent = await findVisibleAgent(em, who.organizationId, agentId, true);
      if (!agent) throw new NotFoundError('Agent');
      const renamed = dto.name !== undefined && dto.name !== agent.name;
      if (renamed) agent.name = dto.name!;
      if (dto.description !== undefined) agent.description = dto.description;
      await em.getRepository(AgentEntity).update({ id: agent.id }, { name: agent.name, description: agent.description });
      const change = renamed ? await this.versions.republishLiveWithName(em, agent, agent.name) : null;
      return { agent, change };
    });
    if (change) this.bus.emit('agent.live_changed', change);
    return toAgentResponse(await this.getVisible(who.organizationId, agent.id));
  }

  /** Deletes the agent (see deleteAgents): its keys and every token minted from them are refused at once, everywhere. */
  async delete(who: Principal, agentId: string): Promise<void> {
    const changes = await this.credentials.commit(who.organizationId, async (em) => {
      const agent = await findVisibleAgent(em, who.organizationId, agentId, true);
      if (!agent) throw new NotFoundError('Agent');
      return deleteAgents(em, this.versions, agent.organizationId, { agentId: agent.id });
    });
    for (const change of changes) this.bus.emit('agent.live_changed', change);
  }

  /**
   * The caller's agent, or 404 — also for deleted agents and agents of deleted projects. Pass the transaction's
   * manager to hold a share lock on the agent until commit (for rows created under it, which a delete must see).
   */
  async getVisible(organizationId: string, agentId: string, sharedLockIn?: EntityManager): Promise<AgentEntity> {
    const agent = await findVisibleAgent(sharedLockIn ?? this.dataSource.manager, organizationId, agentId, sharedLockIn ? 'share' : false);
    if (!agent) throw new NotFoundError('Agent');
    return agent;
  }
}
