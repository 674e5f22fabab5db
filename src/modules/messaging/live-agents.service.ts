import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { LiveRevisionChange, ProjectDeleted, TrafficChanged } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { NotFoundError } from '../../common/errors/app-error.js';
import type { PreparedAgent } from '../runtime/prepared-agent.js';
import { RuntimeService } from '../runtime/runtime.service.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { TrafficService } from '../versions/traffic.service.js';
import { NoActiveVersionError } from './messaging.errors.js';

/**
 * An agent as it answers a turn: the (version, revision) that answers and the engine prepared for that revision.
 * From `get`, the live one; from `route`, the traffic split's choice for the thread (docs/releases.md).
 */
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

/** Where a thread is: its latest turn's version and revision (null before its first turn). */
export interface ThreadPlacement {
  userId: string;
  versionId: string | null;
  revisionId: string | null;
}

interface Arm {
  agent: LiveAgent;
  /** The arm covers hash buckets [from, to) of 0..99. */
  from: number;
  to: number;
}

interface CachedAgent {
  live: LiveAgent | null;
  exists: boolean;
  /** The split's arms in layout order; empty without a split. */
  arms: Arm[];
  /** Revisions outside the split that threads stay on (null: archived or gone), loaded on first use. */
  pinned: Map<string, Promise<LiveAgent | null>>;
}

// Keyed by organization too: an id guessed across tenants must never hit another tenant's entry.
const cacheKey = (organizationId: string, agentId: string) => `${organizationId}:${agentId}`;

/** How long an entry is trusted when a change announced by another process was missed (Redis unreachable). */
export const LIVE_AGENT_TTL_MS = 2000;

/** The bucket 0..99 of an end user for an agent: the first 4 bytes of sha256("<agentId>:<userId>") mod 100. */
export function trafficBucket(agentId: string, userId: string): number {
  return createHash('sha256').update(`${agentId}:${userId}`).digest().readUInt32BE(0) % 100;
}

/**
 * The live revision and the traffic split of each agent, served from memory on the hot path. Loaded with one query on a
 * miss (concurrent misses share it); dropped at once on every process when the live pointer moves (`agent.live_changed`),
 * the split changes or a version is archived (`agent.traffic_changed`), or the agent's project is deleted
 * (`project.deleted`). The engine's compiled form is cached by digest inside the runtime.
 */
@Injectable()
export class LiveAgentsService {
  private readonly cache: LRUCache<string, CachedAgent>;

  constructor(
    private readonly traffic: TrafficService,
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

  @OnBusEvent('agent.traffic_changed')
  onTrafficChanged(change: TrafficChanged): void {
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
    return (await this.entry(organizationId, agentId)).live;
  }

  /**
   * The version that answers a turn. Without a split: the live one, always. With a split: a thread that already has
   * a version stays on it while that version is not archived (the live arm follows the live pointer, another arm
   * answers with its arm revision, a version outside the split with the revision the thread last had); a new thread,
   * or one whose version was archived, gets the arm of its user's hash bucket.
   */
  async route(
    organizationId: string,
    agentId: string,
    thread: ThreadPlacement,
    lookup: 'count' | 'already_counted' = 'count',
  ): Promise<LiveAgent> {
    const entry = await this.entry(organizationId, agentId, lookup === 'count');
    if (entry.arms.length === 0) return entry.live;
    if (thread.versionId && thread.revisionId) {
      if (thread.versionId === entry.live.versionId) return entry.live;
      const arm = entry.arms.find((a) => a.agent.versionId === thread.versionId);
      if (arm) return arm.agent;
      const pinned = await this.pinned(entry, thread.revisionId);
      if (pinned) return pinned;
    }
    const bucket = trafficBucket(agentId, thread.userId);
    return (entry.arms.find((a) => bucket >= a.from && bucket < a.to) ?? entry.arms[0]!).agent;
  }

  /** The cached entry; `counted`: the lookup is reported to the cache metrics (once per turn: `get`, then `route` uncounted). */
  private async entry(organizationId: string, agentId: string, counted = true): Promise<CachedAgent & { live: LiveAgent }> {
    const status: LRUCache.Status<string, CachedAgent> = {};
    const entry = await this.cache.fetch(cacheKey(organizationId, agentId), { status });
    if (counted) this.metrics.cacheLookup('live_agents', status.fetch === 'hit');
    if (!entry?.exists) throw new NotFoundError('Agent');
    if (!entry.live) throw new NoActiveVersionError();
    return entry as CachedAgent & { live: LiveAgent };
  }

  private pinned(entry: CachedAgent & { live: LiveAgent }, revisionId: string): Promise<LiveAgent | null> {
    let found = entry.pinned.get(revisionId);
    if (!found) {
      const { live } = entry;
      found = this.traffic.pinnedRevision(live.organizationId, live.agentId, revisionId).then((row) =>
        row && row.status === 'published'
          ? {
              ...live,
              versionId: row.version_id,
              revisionId: row.id,
              versionTag: row.version_tag,
              prepared: this.runtime.prepare({ digest: row.digest, runtime: live.runtime, bundle: row.bundle }),
            }
          : null,
      );
      found.catch(() => entry.pinned.delete(revisionId));
      entry.pinned.set(revisionId, found);
    }
    return found;
  }

  private async load(key: string): Promise<CachedAgent> {
    const [organizationId, agentId] = key.split(':') as [string, string];
    const row = await this.traffic.routing(organizationId, agentId);
    const pinned = new Map<string, Promise<LiveAgent | null>>();
    if (!row) return { live: null, exists: false, arms: [], pinned };
    if (!row.live_revision_id || !row.bundle || !row.digest) return { live: null, exists: true, arms: [], pinned };
    const live: LiveAgent = {
      agentId,
      organizationId,
      projectId: row.project_id,
      runtime: row.runtime,
      versionId: row.live_version_id!,
      revisionId: row.live_revision_id,
      versionTag: row.live_version_tag!,
      prepared: this.runtime.prepare({ digest: row.digest, runtime: row.runtime, bundle: row.bundle }),
    };
    const arms: Arm[] = [];
    let from = 0;
    for (const arm of row.arms ?? []) {
      const agent: LiveAgent =
        arm.version_id === live.versionId
          ? live
          : {
              ...live,
              versionId: arm.version_id,
              revisionId: arm.revision_id,
              versionTag: arm.version_tag,
              prepared: this.runtime.prepare({ digest: arm.digest, runtime: row.runtime, bundle: arm.bundle! }),
            };
      arms.push({ agent, from, to: from + arm.percent });
      from += arm.percent;
    }
    return { live, exists: true, arms, pinned };
  }
}
