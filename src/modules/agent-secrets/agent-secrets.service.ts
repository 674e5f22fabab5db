import { Injectable } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import { NotFoundError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import type { AgentEntity } from '../agent-records/agent.entity.js';
import { AgentsRepository } from '../agent-records/agents.repository.js';
import type { Principal } from '../auth/principal.js';
import { AgentSecretsRepository } from './agent-secrets.repository.js';
import { AgentSecretsStore } from './agent-secrets.store.js';
import { toAgentSecretResponse, type AgentSecretResponseDto, type ListAgentSecretsQueryDto } from './dto/agent-secret.dto.js';

/**
 * The management side of agent secrets: set (create or replace), list names, delete. Write-only: no route answers a
 * value; the audit records name the secret, never its value.
 */
@Injectable()
export class AgentSecretsService {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly bus: EventBus,
    private readonly secrets: AgentSecretsRepository,
    private readonly store: AgentSecretsStore,
  ) {}

  async put(who: Principal, agentId: string, name: string, value: string): Promise<void> {
    await this.unitOfWork.run(async () => {
      const agent = await this.visibleAgent(who, agentId, 'share');
      const created = await this.secrets.upsert({
        id: newId(),
        organizationId: agent.organizationId,
        agentId: agent.id,
        name,
        sealed: this.store.seal(agent.id, name, value),
      });
      await this.bus.publish('agent_secret.put', {
        actor: who,
        resourceType: 'agent_secret',
        resourceId: `${agent.id}:${name}`,
        after: { agent_id: agent.id, name, created },
      });
    });
  }

  async list(
    who: Principal,
    agentId: string,
    query: ListAgentSecretsQueryDto,
    request: PageRequest,
  ): Promise<Page<AgentSecretResponseDto>> {
    const agent = await this.visibleAgent(who, agentId);
    return this.secrets.page(agent.id, query, request, toAgentSecretResponse);
  }

  async delete(who: Principal, agentId: string, name: string): Promise<void> {
    await this.unitOfWork.run(async () => {
      const agent = await this.visibleAgent(who, agentId, 'share');
      if (!(await this.secrets.delete(agent.id, name))) throw new NotFoundError('Secret');
      await this.bus.publish('agent_secret.delete', {
        actor: who,
        resourceType: 'agent_secret',
        resourceId: `${agent.id}:${name}`,
        before: { agent_id: agent.id, name },
      });
    });
  }

  private async visibleAgent(who: Principal, agentId: string, lock: 'share' | false = false): Promise<AgentEntity> {
    const agent = await this.agents.findVisible(who.organizationId, agentId, lock);
    if (!agent) throw new NotFoundError('Agent');
    return agent;
  }
}
