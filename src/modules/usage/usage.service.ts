import { Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal.js';
import { AgentsService } from '../agents/agents.service.js';
import { ProjectsService } from '../projects/projects.service.js';
import { toUsage, type GroupedUsageDto, type UsageQueryDto } from './dto/usage.dto.js';
import type { UsagePlan } from '../conversations/conversations.types.js';
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

  async ofAgent(who: Principal, agentId: string, query: UsageQueryDto): Promise<GroupedUsageDto> {
    const plan = planUsage(parseUsageRange(query.created_from, query.created_to));
    const agent = await this.agents.getVisible(who.organizationId, agentId);
    return this.sums('agent_id', agent.id, plan, query);
  }

  async ofProject(who: Principal, projectId: string, query: UsageQueryDto): Promise<GroupedUsageDto> {
    const plan = planUsage(parseUsageRange(query.created_from, query.created_to));
    const project = await this.projects.getVisible(who.organizationId, projectId);
    return this.sums('project_id', project.id, plan, query);
  }

  private async sums(scope: 'agent_id' | 'project_id', id: string, plan: UsagePlan, query: UsageQueryDto): Promise<GroupedUsageDto> {
    const total = toUsage(await this.conversations.usage(scope, id, plan));
    if (query.group_by !== 'version_tag') return total;
    const rows = await this.conversations.usageByVersion(scope, id, plan);
    return { ...total, by_version: rows.map((row) => ({ version_tag: row.version_tag, ...toUsage(row) })) };
  }
}
