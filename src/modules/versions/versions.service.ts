import { Injectable } from '@nestjs/common';
import { ConflictError, NotFoundError, ValidationError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { AppConfig } from '../../config/app-config.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import type { AgentEntity } from '../agent-records/agent.entity.js';
import { AgentsRepository } from '../agent-records/agents.repository.js';
import type { Principal } from '../auth/principal.js';
import { changedFields } from '../audit/audit-summary.js';
import { bundleDigest } from '../bundles/bundle-digest.js';
import type { Bundle } from '../bundles/bundle.types.js';
import { BundleValidator } from '../bundles/bundle.validator.js';
import { BundlesService } from '../bundles/bundles.service.js';
import type { ListVersionsQueryDto } from './dto/list-versions.query.dto.js';
import type { CreateVersionDto, PushBundleDto, UpdateVersionDto } from './dto/version-request.dto.js';
import type { BundleResponseDto, PushResponseDto, VersionResponseDto } from './dto/version-response.dto.js';
import { EventBus } from '../../common/bus/event-bus.js';
import type { AgentsDeleted, LiveRevisionChange } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import type { AgentRevisionEntity } from './entities/agent-revision.entity.js';
import type { AgentVersionEntity } from './entities/agent-version.entity.js';
import { assertProviderConfigured } from './provider-keys.check.js';
import { VersionErrorCode } from './versions.errors.js';
import { toVersionResponse } from './version-item.js';
import { VersionsRepository } from './versions.repository.js';
import { TrafficRepository } from './traffic.repository.js';
import { McpService } from '../runtime/mcp/mcp.service.js';
import type { PinnedMcpTool } from '../runtime/mcp/mcp-pinning.js';
import { AgentSecretsStore } from '../agent-secrets/agent-secrets.store.js';
import { secretReferenceSites } from '../bundles/secret-references.js';
import { canonicalJson } from '../bundles/bundle-digest.js';

/**
 * Where a new revision's MCP tool pins come from: a push lists the servers afresh (`fresh`); a revision made from
 * another with the same servers (rename, knowledge upload, clone) pins what that one pinned (`source`).
 */
interface PinSource {
  fresh: PinnedMcpTool[] | null;
  source: { id: string; bundle: Bundle } | null;
}

const tagOf = (number: number, revision: number) => `v${number}.${revision}`;

/**
 * The version lifecycle of the spec's state table. Every change that can move an agent's live pointer locks the
 * agent row first (then the version row), so concurrent publishes serialize and exactly one version ends up live;
 * pushes lock the version row, so concurrent pushes get consecutive revision numbers and none is lost.
 */
@Injectable()
export class VersionsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly versions: VersionsRepository,
    private readonly agents: AgentsRepository,
    private readonly validator: BundleValidator,
    private readonly bundles: BundlesService,
    private readonly bus: EventBus,
    private readonly config: AppConfig,
    private readonly traffic: TrafficRepository,
    private readonly mcp: McpService,
    private readonly secrets: AgentSecretsStore,
  ) {}

  async create(who: Principal, agentId: string, dto: CreateVersionDto): Promise<VersionResponseDto> {
    const versionId = await this.unitOfWork.run(async () => {
      const agent = await this.lockAgent(who, agentId);
      const { bundle, source } = await this.startingBundle(agent, dto);
      const version = await this.versions.saveVersion({
        id: newId(),
        organizationId: agent.organizationId,
        agentId: agent.id,
        number: await this.versions.nextNumber(agent.id),
        status: 'draft',
        label: dto.label ?? null,
        tags: normalizeTags(dto.tags),
        notes: dto.notes ?? null,
        currentRevisionId: null,
      });
      const revision = await this.insertRevision(version, 0, bundle, null, { fresh: null, source });
      await this.versions.updateVersion(version.id, { currentRevisionId: revision.id });
      await this.bus.publish('version.create', {
        actor: who,
        resourceType: 'version',
        resourceId: version.id,
        after: {
          agent_id: agent.id,
          number: version.number,
          status: version.status,
          source: dto.source,
          ...(dto.source === 'template' ? { template: dto.template } : {}),
          ...(dto.source === 'clone' ? { from_version_id: dto.from_version_id } : {}),
          label: version.label,
          tags: version.tags,
          version_tag: revision.versionTag,
          digest: revision.digest,
        },
      });
      return version.id;
    });
    return this.item(agentId, versionId);
  }

  async list(who: Principal, agentId: string, query: ListVersionsQueryDto, request: PageRequest): Promise<Page<VersionResponseDto>> {
    const agent = await this.visibleAgent(who, agentId);
    return this.versions.items(agent.id, query, request);
  }

  async get(who: Principal, agentId: string, versionId: string): Promise<VersionResponseDto> {
    const agent = await this.visibleAgent(who, agentId);
    return this.item(agent.id, versionId);
  }

  async update(who: Principal, agentId: string, versionId: string, dto: UpdateVersionDto): Promise<VersionResponseDto> {
    const agent = await this.visibleAgent(who, agentId);
    const version = await this.unitOfWork.run(async () => {
      const version = await this.findVersion(agent.id, versionId, true);
      const changes: Partial<AgentVersionEntity> = {};
      if (dto.label !== undefined) changes.label = dto.label;
      if (dto.tags !== undefined) changes.tags = normalizeTags(dto.tags);
      if (dto.notes !== undefined) changes.notes = dto.notes;
      if (Object.keys(changes).length > 0) await this.versions.updateVersion(version.id, changes);
      const fields = (v: Pick<AgentVersionEntity, 'label' | 'tags' | 'notes'>) => ({ label: v.label, tags: v.tags, notes: v.notes });
      await this.bus.publish('version.update', {
        actor: who,
        resourceType: 'version',
        resourceId: version.id,
        ...changedFields(fields(version), fields({ ...version, ...changes })),
      });
      return version;
    });
    return this.item(agent.id, version.id);
  }

  /** draft or published → published and live; the previous live version stays published. Archived → 409. */
  async publish(who: Principal, agentId: string, versionId: string): Promise<VersionResponseDto> {
    const change = await this.unitOfWork.run(async () => {
      const agent = await this.lockAgent(who, agentId);
      const version = await this.findVersion(agent.id, versionId, true);
      if (version.status === 'archived') {
        throw new ConflictError(
          VersionErrorCode.VersionArchived,
          `Version ${version.number} is archived; create or pick another version to publish`,
        );
      }
      const revision = await this.currentRevision(version);
      assertProviderConfigured(revision.bundle, this.config.providers);
      if (version.status !== 'published') await this.versions.updateVersion(version.id, { status: 'published' });
      await this.adjustSplitForPublish(agent, version.id, revision.id);
      const before = { status: version.status, live_version_id: agent.liveVersionId, live_version_tag: agent.liveVersionTag };
      const change = await this.moveLivePointer(agent, version.id, revision, 'publish');
      await this.bus.publish('version.publish', {
        actor: who,
        resourceType: 'version',
        resourceId: version.id,
        before,
        after: { status: 'published', live_version_id: version.id, live_version_tag: revision.versionTag, digest: revision.digest },
      });
      await this.bus.publish('agent.live_changed', change);
      await this.bus.publish('version.published', change);
      return change;
    });
    return this.item(change.agentId, versionId);
  }

  /** Any non-live version → archived; the live one → 409 version_is_live; an arm of the traffic split → 409 version_in_traffic_split. */
  async archive(who: Principal, agentId: string, versionId: string): Promise<VersionResponseDto> {
    await this.unitOfWork.run(async () => {
      const agent = await this.lockAgent(who, agentId);
      const version = await this.findVersion(agent.id, versionId, true);
      if (agent.liveVersionId === version.id) {
        throw new ConflictError(
          VersionErrorCode.VersionIsLive,
          `Version ${version.number} is live; publish another version before archiving it`,
        );
      }
      if ((await this.traffic.arms(agent.id)).some((arm) => arm.version_id === version.id)) {
        throw new ConflictError(
          VersionErrorCode.VersionInTrafficSplit,
          `Version ${version.number} is an arm of the agent's traffic split; change or end the split (PUT or DELETE …/traffic) first`,
        );
      }
      if (version.status !== 'archived') await this.versions.updateVersion(version.id, { status: 'archived' });
      await this.bus.publish('version.archive', {
        actor: who,
        resourceType: 'version',
        resourceId: version.id,
        before: { status: version.status },
        after: { status: 'archived' },
      });
      // Threads staying on this version move to the split's or the live version (docs/releases.md).
      await this.bus.publish('agent.traffic_changed', { organizationId: agent.organizationId, agentId: agent.id, reason: 'archive' });
    });
    return this.item(agentId.toLowerCase(), versionId);
  }

  /**
   * Commits a new revision `vN.R`; a bundle identical to the current revision commits nothing. Header values may name
   * only secrets the agent has (422 naming the header); the MCP servers' allowed tools are listed now and pinned in the
   * revision (422 naming the server or tool that cannot be): outside the transaction, which holds no lock meanwhile.
   */
  async push(who: Principal, agentId: string, versionId: string, dto: PushBundleDto): Promise<PushResponseDto> {
    const agent = await this.visibleAgent(who, agentId);
    const bundle = this.validator.assertValid(dto.bundle);
    await this.assertSecretsExist(agent.id, bundle);
    // A version that does not exist is 404 before any server is contacted.
    if (bundle.mcp_servers?.length) await this.findVersion(agent.id, versionId);
    const pins = await this.mcp.discover(agent.id, bundle);
    return this.commitIfChanged(who, agent, versionId, () => bundle, dto.message ?? null, pins);
  }

  /**
   * A push computed from the current bundle (the knowledge upload): `change` gets the current revision's bundle while
   * the version row is locked, so a concurrent push is neither lost nor overwritten, and may throw to refuse (nothing is
   * committed). The result goes through the same validation and revision rules as a push.
   */
  async pushChange(
    who: Principal,
    agentId: string,
    versionId: string,
    change: (current: Bundle) => Bundle,
    message: string | null,
  ): Promise<PushResponseDto> {
    return this.commitIfChanged(
      who,
      await this.visibleAgent(who, agentId),
      versionId,
      (current) => this.validator.assertValid(change(structuredClone(current))),
      message,
    );
  }

  /** Under the version's row lock: `next` gives the bundle from the current one; archived versions refuse (409). */
  private async commitIfChanged(
    who: Principal,
    agent: AgentEntity,
    versionId: string,
    next: (current: Bundle) => Bundle,
    message: string | null,
    pins: PinnedMcpTool[] | null = null,
  ): Promise<PushResponseDto> {
    const revision = await this.unitOfWork.run(async () => {
      const version = await this.findVersion(agent.id, versionId, true);
      if (version.status === 'archived') {
        throw new ConflictError(VersionErrorCode.VersionArchived, `Version ${version.number} is archived and takes no new revisions`);
      }
      const current = await this.currentRevision(version);
      const bundle = next(current.bundle);
      const digest = bundleDigest(bundle);
      const committed =
        current.digest === digest ? current : await this.commitRevision(version, bundle, message, { fresh: pins, source: current });
      // Digests and tags only: a bundle may hold provider keys and tool credentials.
      await this.bus.publish('version.push', {
        actor: who,
        resourceType: 'version',
        resourceId: version.id,
        before: { version_tag: current.versionTag, digest: current.digest },
        after: { version_tag: committed.versionTag, digest: committed.digest, message, committed: committed !== current },
      });
      return committed;
    });
    return {
      version_id: revision.versionId,
      revision_id: revision.id,
      version_tag: revision.versionTag,
      digest: revision.digest,
      created_at: revision.createdAt.toISOString(),
    };
  }

  /** A revision's digest and bundle with its agent's runtime (for work that follows a publish), or null when either is gone. */
  async revisionContent(
    organizationId: string,
    agentId: string,
    revisionId: string,
  ): Promise<{ digest: string; runtime: 'v1' | 'v2'; bundle: Bundle } | null> {
    const agent = await this.agents.findVisible(organizationId, agentId);
    const revision = agent ? await this.versions.findRevision({ id: revisionId }) : null;
    if (!agent || !revision || revision.agentId !== agent.id) return null;
    return { digest: revision.digest, runtime: agent.runtime, bundle: revision.bundle };
  }

  /** The current revision's bundle, or the revision tagged `versionTag` of this version (404 when it has none). */
  async pull(who: Principal, agentId: string, versionId: string, versionTag: string | undefined): Promise<BundleResponseDto> {
    const agent = await this.visibleAgent(who, agentId);
    const version = await this.findVersion(agent.id, versionId);
    const revision = await this.versions.findRevision(
      versionTag ? { versionId: version.id, versionTag } : { id: version.currentRevisionId! },
    );
    if (!revision) throw new NotFoundError(`Revision ${versionTag ?? ''}`.trim());
    return {
      agent_id: agent.id,
      version_id: version.id,
      version_tag: revision.versionTag,
      bundle: revision.bundle as Record<string, unknown>,
      expires_at: new Date(Date.now() + this.config.bundleCacheTtlSeconds * 1000).toISOString(),
      return_type: 'bundle',
    };
  }

  /**
   * Rename (called by the agents service inside its unit of work, agent row locked). The live version gets two
   * revisions at most, in this order: the live revision's bundle with `bundle.name` = the new name, made live at
   * once (the live version id does not change); then, when the version has unpublished content (its current
   * revision is not the live one), that content with the new name, which stays the current revision, so the next
   * publish ships the pushed content under the new name instead of losing it. Returns the change to announce
   * after commit, or null when the live revision did not move.
   */
  async republishLiveWithName(agent: AgentEntity, name: string): Promise<LiveRevisionChange | null> {
    if (!agent.liveVersionId || !agent.liveRevisionId) return null;
    // The version row lock comes first: a concurrent push then lands before or after both revisions.
    const version = await this.findVersion(agent.id, agent.liveVersionId, true);
    const live = await this.versions.findRevision({ id: agent.liveRevisionId });
    if (!live) return null;
    const message = `Agent renamed to "${name}"`;
    let change: LiveRevisionChange | null = null;
    const renamedLive: Bundle = { ...live.bundle, name };
    if (bundleDigest(renamedLive) !== live.digest) {
      const renamed = await this.commitRevision(version, renamedLive, message, { fresh: null, source: live });
      change = await this.moveLivePointer(agent, version.id, renamed, 'rename');
    }
    if (version.currentRevisionId !== live.id) {
      const current = await this.currentRevision(version);
      const renamedCurrent: Bundle = { ...current.bundle, name };
      // Re-committed even when its name is already right, if the live rename took its place as the newest revision.
      if (change || bundleDigest(renamedCurrent) !== current.digest) {
        await this.commitRevision(version, renamedCurrent, message, { fresh: null, source: current });
      }
    }
    return change;
  }

  /** Agent deletion (in its transaction): hard-deletes the agents' versions and, by cascade, their revisions. */
  @OnBusEvent('agents.deleted', { phase: 'transaction' })
  async agentsDeleted({ agentIds }: AgentsDeleted): Promise<void> {
    for (const agentId of agentIds) await this.versions.deleteAllOfAgent(agentId);
  }

  /**
   * A publish while a traffic split exists (agent row locked, before the live pointer moves): a version that is already
   * an arm just becomes the live arm, and the previously live arm keeps answering with the revision that was live; a
   * version outside the split takes the previously live arm's place and share. The live version stays one arm.
   */
  private async adjustSplitForPublish(agent: AgentEntity, versionId: string, revisionId: string): Promise<void> {
    const previous = agent.liveVersionId;
    if (!previous || previous === versionId || !agent.liveRevisionId) return;
    const arms = await this.traffic.arms(agent.id);
    if (arms.length === 0) return;
    if (arms.some((arm) => arm.version_id === versionId)) {
      await this.traffic.moveArm(agent.id, previous, { versionId: previous, revisionId: agent.liveRevisionId });
      await this.traffic.moveArm(agent.id, versionId, { versionId, revisionId });
    } else {
      await this.traffic.moveArm(agent.id, previous, { versionId, revisionId });
    }
  }

  private async currentRevision(version: AgentVersionEntity): Promise<AgentRevisionEntity> {
    const revision = await this.versions.findRevision({ id: version.currentRevisionId! });
    if (!revision) throw new Error(`Version ${version.id} has no current revision`);
    return revision;
  }

  private async commitRevision(
    version: AgentVersionEntity,
    bundle: Bundle,
    message: string | null,
    pins: PinSource,
  ): Promise<AgentRevisionEntity> {
    const revision = await this.insertRevision(version, await this.versions.nextRevisionNumber(version.id), bundle, message, pins);
    await this.versions.updateVersion(version.id, { currentRevisionId: revision.id });
    return revision;
  }

  /** A new revision row, with its MCP tool pins when its bundle names servers (docs/mcp.md, "Pinning"). */
  private async insertRevision(
    version: AgentVersionEntity,
    revisionNumber: number,
    bundle: Bundle,
    message: string | null,
    pins: PinSource,
  ): Promise<AgentRevisionEntity> {
    const revision = await this.versions.insertRevision({
      id: newId(),
      organizationId: version.organizationId,
      agentId: version.agentId,
      versionId: version.id,
      revisionNumber,
      versionTag: tagOf(version.number, revisionNumber),
      bundle,
      digest: bundleDigest(bundle),
      message,
      createdAt: new Date(),
    });
    if (bundle.mcp_servers?.length) {
      if (pins.fresh) await this.mcp.savePins(revision.id, revision.agentId, pins.fresh);
      else if (pins.source && canonicalJson(pins.source.bundle.mcp_servers) === canonicalJson(bundle.mcp_servers)) {
        await this.mcp.copyPins(pins.source.id, revision.id);
      } else throw new Error(`Revision ${revision.versionTag} names MCP servers that were neither listed nor pinned before`);
    }
    return revision;
  }

  /** 422 naming each header value that names a secret the agent does not have. */
  private async assertSecretsExist(agentId: string, bundle: Bundle): Promise<void> {
    const sites = secretReferenceSites(bundle);
    const missing = new Set(await this.secrets.missing(agentId, [...new Set(sites.flatMap((site) => site.names))]));
    if (missing.size === 0) return;
    throw new ValidationError(
      sites.flatMap((site) =>
        site.names
          .filter((name) => missing.has(name))
          .map((name) => ({
            field: site.field,
            message: `names the secret ${name}, which this agent does not have (PUT /management/v1/agents/{agentId}/secrets/${name})`,
          })),
      ),
      'The bundle names agent secrets that are not set',
    );
  }

  private async moveLivePointer(
    agent: AgentEntity,
    versionId: string,
    revision: AgentRevisionEntity,
    reason: LiveRevisionChange['reason'],
  ): Promise<LiveRevisionChange> {
    await this.agents.moveLivePointer(agent.id, { versionId, revisionId: revision.id, versionTag: revision.versionTag });
    agent.liveVersionId = versionId;
    agent.liveRevisionId = revision.id;
    agent.liveVersionTag = revision.versionTag;
    return {
      organizationId: agent.organizationId,
      agentId: agent.id,
      versionId,
      revisionId: revision.id,
      versionTag: revision.versionTag,
      reason,
    };
  }

  /** The new version's first bundle, and the revision it copies (a clone: its MCP tool pins come along). */
  private async startingBundle(agent: AgentEntity, dto: CreateVersionDto): Promise<{ bundle: Bundle; source: PinSource['source'] }> {
    switch (dto.source) {
      case 'empty':
        return { bundle: { schema_version: 1, name: agent.name }, source: null };
      case 'template': {
        const bundle = this.bundles.templateBundle(dto.template!);
        if (!bundle) throw ValidationError.field('template', `template must be an id from GET /management/v1/templates`);
        return { bundle: this.validator.assertValid({ ...bundle, name: agent.name }), source: null };
      }
      case 'clone': {
        const source = await this.versions.currentRevisionOf(agent.id, dto.from_version_id!);
        if (!source) throw ValidationError.field('from_version_id', 'from_version_id must name a version of this agent');
        // Stored before a rule tightened (e.g. patterns now run on RE2): a new version starts only from a valid bundle.
        return { bundle: this.validator.assertValid(source.bundle), source };
      }
    }
  }

  private async lockAgent(who: Principal, agentId: string): Promise<AgentEntity> {
    const agent = await this.agents.findVisible(who.organizationId, agentId, 'update');
    if (!agent) throw new NotFoundError('Agent');
    return agent;
  }

  private async visibleAgent(who: Principal, agentId: string): Promise<AgentEntity> {
    const agent = await this.agents.findVisible(who.organizationId, agentId);
    if (!agent) throw new NotFoundError('Agent');
    return agent;
  }

  private async findVersion(agentId: string, versionId: string, lock = false): Promise<AgentVersionEntity> {
    const version = await this.versions.findVersion(agentId, versionId, lock);
    if (!version) throw new NotFoundError('Version');
    return version;
  }

  private async item(agentId: string, versionId: string): Promise<VersionResponseDto> {
    const row = await this.versions.item(agentId.toLowerCase(), versionId.toLowerCase());
    if (!row) throw new NotFoundError('Version');
    return toVersionResponse(row);
  }
}

function normalizeTags(tags: string[] | null | undefined): string[] {
  return [...new Set((tags ?? []).map((t) => t.trim()).filter(Boolean))];
}
