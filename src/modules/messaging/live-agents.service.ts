import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { LiveRevisionChange, ProjectDeleted } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { NotFoundError } from '../../common/errors/app-error.js';
import { AgentsRepository } from '../agents/agents.repository.js';
import type { PreparedAgent } from '../runtime/prepared-agent.js';
import { RuntimeService } from '../runtime/runtime.service.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { NoActiveVersionError } from './messaging.errors.js';

/** An agent as it answers right now: its live (version, revision) and the engine prepared for that revision. */
export interface LiveAgent {
  agentId: string;
  organizationId: string;
  projectId: string;
  runtime: 'v1' | 'v2';
  versionId: string;
  revisionId: string;
  versionTag: string;
  prepared: PreparedAgent;
}

type CachedAgent = { live: LiveAgent | null; exists: boolean };

// Keyed by organization too: an id guessed across tenants must never hit another tenant's entry.
const cacheKey = (organizationId: string, agentId: string) => `${organizationId}:${agentId}`;

/** How long an entry is trusted when a change announced by another process was missed (Redis unreachable). */
export const LIVE_AGENT_TTL_MS = 2000;

/**
 * The live revision of each agent, served from memory on the hot path. Loaded with one query on a miss
 * (concurrent misses share it); dropped at once on every process when the live pointer moves (`agent.live_changed`)
 * or the agent's project is deleted (`project.deleted`). The engine's compiled form is cached by digest inside the runtime.
 */
@Injectable()
export class LiveAgentsService {
  private readonly cache: LRUCache<string, CachedAgent>;

  constructor(
    private readonly agents: AgentsRepository,
    private readonly runtime: RuntimeService,
    private readonly metrics: MetricsService,
  ) {
    this.cache = new LRUCache({
      max: 50_000,
      ttl: LIVE_AGENT_TTL_MS,
      fetchMethod: (key) => this.load(key),
    });
  }

  @OnBusEvent('agent.live_changed')
  onLiveChanged(change: LiveRevisionChange): void {
    this.forget(change.organizationId, [change.agentId]);
  }

  @OnBusEvent('project.deleted')
  onProjectDeleted(deleted: ProjectDeleted): void {
    this.forget(deleted.organizationId, deleted.agentIds);
  }

  private forget(organizationId: string, agentIds: string[]): void {
    for (const agentId of agentIds) {
      if (this.cache.delete(cacheKey(organizationId, agentId))) this.metrics.cacheInvalidated('live_agents');
    }
  }

  /** The agent's live state; 404 `not_found` for an unknown/deleted agent, 404 `no_active_version` before a publish. */
  async get(organizationId: string, agentId: string): Promise<LiveAgent> {
    const status: LRUCache.Status<string, CachedAgent> = {};
    const entry = await this.cache.fetch(cacheKey(organizationId, agentId), { status });
    this.metrics.cacheLookup('live_agents', status.fetch === 'hit');
    if (!entry?.exists) throw new NotFoundError('Agent');
    if (!entry.live) throw new NoActiveVersionError();
    return entry.live;
  }

  private async load(key: string): Promise<{ live: LiveAgent | null; exists: boolean }> {
    const [organizationId, agentId] = key.split(':') as [string, string];
    const row = await this.agents.findLive(organizationId, agentId);
    if (!row) return { live: null, exists: false };
    if (!row.live_revision_id || !row.bundle || !row.digest) return { live: null, exists: true };
    return {
      exists: true,
      live: {
        agentId,
        organizationId,
        projectId: row.project_id,
        runtime: row.runtime,
        versionId: row.live_version_id!,
        revisionId: row.live_revision_id,
        versionTag: row.live_version_tag!,
        prepared: this.runtime.prepare({ digest: row.digest, runtime: row.runtime, bundle: row.bundle }),
      },
    };
  }
}
