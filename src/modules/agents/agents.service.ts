import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { toolSigningSecret } from '../../common/outbound/tool-signing.js';
import { AppConfig } from '../../config/app-config.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { changedFields } from '../audit/audit-summary.js';
import type { Principal } from '../auth/principal.js';
import { ProjectsService } from '../projects/projects.service.js';
import { EventBus } from '../../common/bus/event-bus.js';
import { CredentialChanges } from '../auth/credential-changes.js';
import { VersionsService } from '../versions/versions.service.js';
import type { AgentEntity, AgentLock } from '../agent-records/agent.entity.js';
import { deleteAgents } from '../agent-records/agent-deletion.js';
import { AgentsRepository } from '../agent-records/agents.repository.js';
import {
  toAgentResponse,
  type AgentResponseDto,
  type CreateAgentDto,
  type ListAgentsQueryDto,
  type UpdateAgentDto,
} from '../agent-records/dto/agent.dto.js';
import type { ToolSigningSecretDto } from './dto/tool-signing-secret.dto.js';

@Injectable()
export class AgentsService {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly projects: ProjectsService,
    private readonly versions: VersionsService,
    private readonly bus: EventBus,
    private readonly credentials: CredentialChanges,
    private readonly config: AppConfig,
  ) {}

  /** A new agent has no live version: it answers only once a version is published. */
  async create(who: Principal, projectId: string, dto: CreateAgentDto): Promise<AgentResponseDto> {
    const agent = await this.unitOfWork.run(async () => {
      const project = await this.projects.getVisible(who.organizationId, projectId);
      const created = await this.agents.create({
        id: newId(),
        organizationId: project.organizationId,
        projectId: project.id,
        name: dto.name,
        description: dto.description ?? null,
        runtime: dto.runtime ?? 'v1',
        liveVersionId: null,
        liveRevisionId: null,
        liveVersionTag: null,
        publishRequiresPassingEvaluation: false,
        deletedAt: null,
      });
      await this.bus.publish('agent.create', {
        actor: who,
        resourceType: 'agent',
        resourceId: created.id,
        after: { project_id: created.projectId, name: created.name, description: created.description, runtime: created.runtime },
      });
      return created;
    });
    return toAgentResponse(agent);
  }

  async list(who: Principal, projectId: string, query: ListAgentsQueryDto, request: PageRequest): Promise<Page<AgentResponseDto>> {
    const project = await this.projects.getVisible(who.organizationId, projectId);
    return this.agents.page(who.organizationId, project.id, query, request, toAgentResponse);
  }

  async get(who: Principal, agentId: string): Promise<AgentResponseDto> {
    return toAgentResponse(await this.getVisible(who.organizationId, agentId));
  }

  /** Renaming re-publishes the live revision with the new name as a new revision that becomes live (same live version). */
  async update(who: Principal, agentId: string, dto: UpdateAgentDto): Promise<AgentResponseDto> {
    const agent = await this.unitOfWork.run(async () => {
      const agent = await this.getVisible(who.organizationId, agentId, 'update');
      const before = {
        name: agent.name,
        description: agent.description,
        live_version_tag: agent.liveVersionTag,
        publish_requires_passing_evaluation: agent.publishRequiresPassingEvaluation,
      };
      const renamed = dto.name !== undefined && dto.name !== agent.name;
      if (renamed) agent.name = dto.name!;
      if (dto.description !== undefined) agent.description = dto.description;
      if (dto.publish_requires_passing_evaluation !== undefined) {
        agent.publishRequiresPassingEvaluation = dto.publish_requires_passing_evaluation;
      }
      await this.agents.updateDetails(agent.id, {
        name: agent.name,
        description: agent.description,
        publishRequiresPassingEvaluation: agent.publishRequiresPassingEvaluation,
      });
      const change = renamed ? await this.versions.republishLiveWithName(agent, agent.name) : null;
      const after = {
        name: agent.name,
        description: agent.description,
        live_version_tag: agent.liveVersionTag,
        publish_requires_passing_evaluation: agent.publishRequiresPassingEvaluation,
      };
      await this.bus.publish('agent.update', {
        actor: who,
        resourceType: 'agent',
        resourceId: agent.id,
        ...changedFields(before, after),
      });
      if (change) {
        await this.bus.publish('agent.live_changed', change);
        await this.bus.publish('version.published', change);
      }
      return agent;
    });
    return toAgentResponse(await this.getVisible(who.organizationId, agent.id));
  }

  /** Deletes the agent (see deleteAgents): its keys and every token minted from them are refused at once, everywhere. */
  async delete(who: Principal, agentId: string): Promise<void> {
    await this.credentials.commit(who.organizationId, async () => {
      const agent = await this.getVisible(who.organizationId, agentId, 'update');
      const changes = await deleteAgents({ agents: this.agents, bus: this.bus }, agent.organizationId, {
        agentId: agent.id,
      });
      await this.bus.publish('agent.delete', {
        actor: who,
        resourceType: 'agent',
        resourceId: agent.id,
        before: {
          project_id: agent.projectId,
          name: agent.name,
          live_version_id: agent.liveVersionId,
          live_version_tag: agent.liveVersionTag,
        },
      });
      for (const change of changes) await this.bus.publish('agent.live_changed', change);
    });
  }

  /** The signing secret of the HTTP tool calls of an agent the caller can see (404 otherwise). */
  async toolSigningSecret(who: Principal, agentId: string): Promise<ToolSigningSecretDto> {
    const agent = await this.getVisible(who.organizationId, agentId);
    return { agent_id: agent.id, secret: toolSigningSecret(this.config.httpTools.signingKey, agent.id), scheme: 'standard-webhooks-v1' };
  }

  /**
   * The caller's agent, or 404 — also for deleted agents and agents of deleted projects. Inside a unit of work,
   * `lock` holds the agent's row until commit (`share`: for rows created under it, which a delete must see).
   */
  async getVisible(organizationId: string, agentId: string, lock: AgentLock = false): Promise<AgentEntity> {
    const agent = await this.agents.findVisible(organizationId, agentId, lock);
    if (!agent) throw new NotFoundError('Agent');
    return agent;
  }
}
