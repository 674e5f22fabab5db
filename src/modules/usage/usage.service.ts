import { Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal.js';
import { AgentsService } from '../agents/agents.service.js';
import { ProjectsService } from '../projects/projects.service.js';
import { toUsage, type UsageDto, type UsageQueryDto } from './dto/usage.dto.js';
import { parseUsageRange, planUsage } from './usage-range.js';
import { ConversationsService } from '../conversations/conversations.service.js';

/** Token usage of an agent or of a project (every agent it has had, deleted ones included). */
@Injectable()
export class UsageService {
  constructor(
    private readonly agents: AgentsService,
    private readonly projects: ProjectsService,
    private readonly conversations: ConversationsService,
  ) {}

  async ofAgent(who: Principal, agentId: string, query: UsageQueryDto): Promise<UsageDto> {
    const plan = planUsage(parseUsageRange(query.created_from, query.created_to));
    const agent = await this.agents.getVisible(who.organizationId, agentId);
    return toUsage(await this.conversations.usage('agent_id', agent.id, plan));
  }

  async ofProject(who: Principal, projectId: string, query: UsageQueryDto): Promise<UsageDto> {
    const plan = planUsage(parseUsageRange(query.created_from, query.created_to));
    const project = await this.projects.getVisible(who.organizationId, projectId);
    return toUsage(await this.conversations.usage('project_id', project.id, plan));
  }
}
