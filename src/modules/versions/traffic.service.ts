import { Injectable } from '@nestjs/common';
import { EventBus } from '../../common/bus/event-bus.js';
import { NotFoundError, ValidationError, type ErrorDetail } from '../../common/errors/app-error.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import type { AgentEntity } from '../agent-records/agent.entity.js';
import { AgentsRepository } from '../agent-records/agents.repository.js';
import type { Principal } from '../auth/principal.js';
import type { TrafficResponseDto, UpdateTrafficDto } from './dto/traffic.dto.js';
import { TrafficRepository, type PinnedRevisionRow, type RoutingRow, type TrafficArmRow } from './traffic.repository.js';
import { VersionsRepository } from './versions.repository.js';

/**
 * Traffic splits between published versions (docs/releases.md). Writes lock the agent row like every change that
 * touches the live pointer (versions.service.ts), so a split and a publish or archive never interleave. The messaging
 * hot path reads `routing` (one statement, cached per process, dropped on `agent.live_changed` /
 * `agent.traffic_changed`).
 */
@Injectable()
export class TrafficService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly traffic: TrafficRepository,
    private readonly versions: VersionsRepository,
    private readonly agents: AgentsRepository,
    private readonly bus: EventBus,
  ) {}

  async get(who: Principal, agentId: string): Promise<TrafficResponseDto> {
    const agent = await this.agents.findVisible(who.organizationId, agentId);
    if (!agent) throw new NotFoundError('Agent');
    return toResponse(agent, await this.traffic.arms(agent.id));
  }

  /**
   * Sets the split: 2..10 distinct published versions of the agent, percents summing to 100, the live version one of
   * them (422 naming the field otherwise); a version_id that is not this agent's is 404. Each non-live arm answers with its version's current revision as of this call; the live arm follows the live pointer.
   */
  async put(who: Principal, agentId: string, dto: UpdateTrafficDto, force = false): Promise<TrafficResponseDto> {
    const { agent, arms } = await this.unitOfWork.run(async () => {
      const agent = await this.lockAgent(who, agentId);
      const details: ErrorDetail[] = [];
      const seen = new Map<string, number>();
      const resolved: Array<{ versionId: string; revisionId: string; percent: number }> = [];
      const arming: Array<{ versionId: string; revisionId: string; versionTag: string; digest: string }> = [];
      for (const [i, arm] of dto.splits.entries()) {
        const versionId = arm.version_id.toLowerCase();
        if (seen.has(versionId)) {
          details.push({
            field: `splits[${i}].version_id`,
            message: `version_id repeats splits[${seen.get(versionId)}]; each version is one arm`,
          });
          continue;
        }
        seen.set(versionId, i);
        const version = await this.versions.findVersion(agent.id, versionId);
        // A well-formed id naming nothing the caller may see (another agent's, another tenant's) is 404, as everywhere.
        if (!version) throw new NotFoundError('Version');
        if (version.status !== 'published') {
          details.push({
            field: `splits[${i}].version_id`,
            message: `version ${version.number} is ${version.status}; only published versions can be arms`,
          });
        } else {
          const revisionId = version.id === agent.liveVersionId ? agent.liveRevisionId! : version.currentRevisionId!;
          resolved.push({ versionId: version.id, revisionId, percent: arm.percent });
          if (version.id !== agent.liveVersionId) {
            const revision = await this.versions.findRevision({ id: revisionId });
            if (revision) arming.push({ versionId: version.id, revisionId, versionTag: revision.versionTag, digest: revision.digest });
          }
        }
      }
      const sum = dto.splits.reduce((total, arm) => total + arm.percent, 0);
      if (sum !== 100) details.push({ field: 'splits', message: `the percents must sum to 100 (they sum to ${sum})` });
      if (!agent.liveVersionId) {
        details.push({ field: 'splits', message: 'the agent has no live version; publish one first' });
      } else if (!seen.has(agent.liveVersionId)) {
        details.push({ field: 'splits', message: `the live version (${agent.liveVersionId}) must be one of the arms` });
      }
      if (details.length > 0) throw new ValidationError(details);
      // The live arm serves already; the other arms are what this change makes serve.
      await this.bus.publish('revisions.going_live', {
        actor: who,
        organizationId: agent.organizationId,
        agentId: agent.id,
        requiresEvaluation: agent.publishRequiresPassingEvaluation,
        force,
        change: 'traffic',
        revisions: arming,
      });
      const before = await this.traffic.arms(agent.id);
      await this.traffic.replace(agent.organizationId, agent.id, resolved);
      const arms = await this.traffic.arms(agent.id);
      await this.bus.publish('traffic.update', {
        actor: who,
        resourceType: 'agent',
        resourceId: agent.id,
        before: before.length > 0 ? auditSummary(before) : null,
        after: auditSummary(arms),
      });
      await this.bus.publish('agent.traffic_changed', { organizationId: agent.organizationId, agentId: agent.id, reason: 'update' });
      return { agent, arms };
    });
    return toResponse(agent, arms);
  }

  /** Ends the split (a no-op without one, which records nothing); the live version is untouched. */
  async remove(who: Principal, agentId: string): Promise<void> {
    await this.unitOfWork.run(async () => {
      const agent = await this.lockAgent(who, agentId);
      const before = await this.traffic.arms(agent.id);
      if (before.length === 0) return;
      await this.traffic.clear(agent.id);
      await this.bus.publish('traffic.delete', {
        actor: who,
        resourceType: 'agent',
        resourceId: agent.id,
        before: auditSummary(before),
        after: null,
      });
      await this.bus.publish('agent.traffic_changed', { organizationId: agent.organizationId, agentId: agent.id, reason: 'delete' });
    });
  }

  /** The live pointer, live revision and split arms of an agent (messaging's cache loads this; undefined: no such agent). */
  routing(organizationId: string, agentId: string): Promise<RoutingRow | undefined> {
    return this.traffic.routing(organizationId, agentId);
  }

  /** A revision of the agent with its version's status, for a thread that stays on its version. */
  pinnedRevision(organizationId: string, agentId: string, revisionId: string): Promise<PinnedRevisionRow | undefined> {
    return this.traffic.pinnedRevision(organizationId, agentId, revisionId);
  }

  private async lockAgent(who: Principal, agentId: string): Promise<AgentEntity> {
    const agent = await this.agents.findVisible(who.organizationId, agentId, 'update');
    if (!agent) throw new NotFoundError('Agent');
    return agent;
  }
}

/** What the audit log keeps of a split: the arms (version, revision tag, percent), in order. */
function auditSummary(arms: TrafficArmRow[]): { splits: Array<{ version_id: string; version_tag: string; percent: number }> } {
  return { splits: arms.map((arm) => ({ version_id: arm.version_id, version_tag: arm.version_tag, percent: arm.percent })) };
}

function toResponse(agent: AgentEntity, arms: TrafficArmRow[]): TrafficResponseDto {
  return {
    agent_id: agent.id,
    live_version_id: agent.liveVersionId ?? null,
    splits: arms.map((arm) => {
      const isLive = arm.version_id === agent.liveVersionId;
      return {
        version_id: arm.version_id,
        version_tag: isLive ? agent.liveVersionTag! : arm.version_tag,
        percent: arm.percent,
        is_live: isLive,
      };
    }),
    updated_at: arms[0]?.created_at.toISOString() ?? null,
  };
}
