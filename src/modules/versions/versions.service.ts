import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ConflictError, NotFoundError, ValidationError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import type { Page } from '../../common/pagination/page.dto.js';
import type { PageRequest } from '../../common/pagination/paginate.js';
import { AppConfig } from '../../config/app-config.js';
import { SqlService } from '../../database/sql.service.js';
import { findVisibleAgent } from '../agents/agent-queries.js';
import type { AgentEntity } from '../agents/agent.entity.js';
import type { Principal } from '../auth/principal.js';
import { bundleDigest } from '../bundles/bundle-digest.js';
import type { Bundle } from '../bundles/bundle.types.js';
import { BundleValidator } from '../bundles/bundle.validator.js';
import { BundlesService } from '../bundles/bundles.service.js';
import type { ListVersionsQueryDto } from './dto/list-versions.query.dto.js';
import type { CreateVersionDto, PushBundleDto, UpdateVersionDto } from './dto/version-request.dto.js';
import type { BundleResponseDto, PushResponseDto, VersionResponseDto } from './dto/version-response.dto.js';
import { AgentRevisionEntity } from './entities/agent-revision.entity.js';
import { AgentVersionEntity } from './entities/agent-version.entity.js';
import { LiveRevisionNotifier, type LiveRevisionChange } from './live-revision.notifier.js';
import { VersionErrorCode } from './versions.errors.js';
import { listVersionItems, readVersionItem, toVersionResponse, type VersionItemRow } from './version-items.query.js';

const tagOf = (number: number, revision: number) => `v${number}.${revision}`;

/**
 * The version lifecycle of the spec's state table. Every change that can move an agent's live pointer locks the
 * agent row first (then the version row), so concurrent publishes serialize and exactly one version ends up live;
 * pushes lock the version row, so concurrent pushes get consecutive revision numbers and none is lost.
 */
@Injectable()
export class VersionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: SqlService,
    private readonly validator: BundleValidator,
    private readonly bundles: BundlesService,
    private readonly notifier: LiveRevisionNotifier,
    private readonly config: AppConfig,
  ) {}

  async create(who: Principal, agentId: string, dto: CreateVersionDto): Promise<VersionResponseDto> {
    const versionId = await this.dataSource.transaction(async (em) => {
      const agent = await this.lockAgent(em, who, agentId);
      const bundle = await this.startingBundle(em, agent, dto);
      const [{ next }] = (await em.query(`SELECT COALESCE(MAX(number), 0) + 1 AS next FROM agent_versions WHERE agent_id = $1`, [
        agent.id,
      ])) as [{ next: number }];
      const version = await em.getRepository(AgentVersionEntity).save({
        id: newId(),
        organizationId: agent.organizationId,
        agentId: agent.id,
        number: Number(next),
        status: 'draft',
        label: dto.label ?? null,
        tags: normalizeTags(dto.tags),
        notes: dto.notes ?? null,
        currentRevisionId: null,
      });
      const revision = await this.insertRevision(em, version, 0, bundle, null);
      await em.getRepository(AgentVersionEntity).update({ id: version.id }, { currentRevisionId: revision.id });
      return version.id;
    });
    return this.item(agentId, versionId);
  }

  async list(who: Principal, agentId: string, query: ListVersionsQueryDto, request: PageRequest): Promise<Page<VersionResponseDto>> {
    const agent = await this.visibleAgent(who, agentId);
    return listVersionItems(this.sql, agent.id, query, request);
  }

  async get(who: Principal, agentId: string, versionId: string): Promise<VersionResponseDto> {
    const agent = await this.visibleAgent(who, agentId);
    return this.item(agent.id, versionId);
  }

  async update(who: Principal, agentId: string, versionId: string, dto: UpdateVersionDto): Promise<VersionResponseDto> {
    const agent = await this.visibleAgent(who, agentId);
    const version = await this.findVersion(this.dataSource.manager, agent.id, versionId);
    const changes: Partial<AgentVersionEntity> = {};
    if (dto.label !== undefined) changes.label = dto.label;
    if (dto.tags !== undefined) changes.tags = normalizeTags(dto.tags);
    if (dto.notes !== undefined) changes.notes = dto.notes;
    if (Object.keys(changes).length > 0) await this.dataSource.getRepository(AgentVersionEntity).update({ id: version.id }, changes);
    return this.item(agent.id, version.id);
  }

  /** draft or published → published and live; the previous live version stays published. Archived → 409. */
  async publish(who: Principal, agentId: string, versionId: string): Promise<VersionResponseDto> {
    const change = await this.dataSource.transaction(async (em) => {
      const agent = await this.lockAgent(em, who, agentId);
      const version = await this.findVersion(em, agent.id, versionId, true);
      if (version.status === 'archived') {
        throw new ConflictError(
          VersionErrorCode.VersionArchived,
          `Version ${version.number} is archived; create or pick another version to publish`,
        );
      }
      const revision = await em.getRepository(AgentRevisionEntity).findOneByOrFail({ id: version.currentRevisionId! });
      if (version.status !== 'published') await em.getRepository(AgentVersionEntity).update({ id: version.id }, { status: 'published' });
      return this.moveLivePointer(em, agent, version.id, revision, 'publish');
    });
    this.notifier.notify(change);
    return this.item(change.agentId, versionId);
  }

  /** Any non-live version → archived; the live one → 409 version_is_live. */
  async archive(who: Principal, agentId: string, versionId: string): Promise<VersionResponseDto> {
    await this.dataSource.transaction(async (em) => {
      const agent = await this.lockAgent(em, who, agentId);
      const version = await this.findVersion(em, agent.id, versionId, true);
      if (agent.liveVersionId === version.id) {
        throw new ConflictError(
          VersionErrorCode.VersionIsLive,
          `Version ${version.number} is live; publish another version before archiving it`,
        );
      }
      if (version.status !== 'archived') await em.getRepository(AgentVersionEntity).update({ id: version.id }, { status: 'archived' });
    });
    return this.item(agentId.toLowerCase(), versionId);
  }

  /** Commits a new revision `vN.R`; a bundle identical to the current revision commits nothing. */
  async push(who: Principal, agentId: string, versionId: string, dto: PushBundleDto): Promise<PushResponseDto> {
    const agent = await this.visibleAgent(who, agentId);
    const bundle = this.validator.assertValid(dto.bundle);
    const digest = bundleDigest(bundle);
    const revision = await this.dataSource.transaction(async (em) => {
      const version = await this.findVersion(em, agent.id, versionId, true);
      if (version.status === 'archived') {
        throw new ConflictError(VersionErrorCode.VersionArchived, `Version ${version.number} is archived and takes no new revisions`);
      }
      const current = await em.getRepository(AgentRevisionEntity).findOneByOrFail({ id: version.currentRevisionId! });
      if (current.digest === digest) return current;
      return this.commitRevision(em, version, bundle, dto.message ?? null);
    });
    return {
      version_id: revision.versionId,
      revision_id: revision.id,
      version_tag: revision.versionTag,
      digest: revision.digest,
      created_at: revision.createdAt.toISOString(),
    };
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
    const agent = await this.visibleAgent(who, agentId);
    const revision = await this.dataSource.transaction(async (em) => {
      const version = await this.findVersion(em, agent.id, versionId, true);
      if (version.status === 'archived') {
        throw new ConflictError(VersionErrorCode.VersionArchived, `Version ${version.number} is archived and takes no new revisions`);
      }
      const current = await em.getRepository(AgentRevisionEntity).findOneByOrFail({ id: version.currentRevisionId! });
      const bundle = this.validator.assertValid(change(structuredClone(current.bundle)));
      if (current.digest === bundleDigest(bundle)) return current;
      return this.commitRevision(em, version, bundle, message);
    });
    return {
      version_id: revision.versionId,
      revision_id: revision.id,
      version_tag: revision.versionTag,
      digest: revision.digest,
      created_at: revision.createdAt.toISOString(),
    };
  }

  /** A revision's digest and bundle with its agent's runtime (for work that follows a publish), or null when it is gone. */
  async revisionContent(revisionId: string): Promise<{ digest: string; runtime: 'v1' | 'v2'; bundle: Bundle } | null> {
    const [row] = await this.sql.rows<{ digest: string; runtime: 'v1' | 'v2'; bundle: Bundle }>(
      `SELECT r.digest, a.runtime, r.bundle FROM agent_revisions r JOIN agents a ON a.id = r.agent_id WHERE r.id = $1`,
      [revisionId],
    );
    return row ?? null;
  }

  /** The current revision's bundle, or the revision tagged `versionTag` of this version (404 when it has none). */
  async pull(who: Principal, agentId: string, versionId: string, versionTag: string | undefined): Promise<BundleResponseDto> {
    const agent = await this.visibleAgent(who, agentId);
    const version = await this.findVersion(this.dataSource.manager, agent.id, versionId);
    const revisions = this.dataSource.getRepository(AgentRevisionEntity);
    const revision = versionTag
      ? await revisions.findOneBy({ versionId: version.id, versionTag })
      : await revisions.findOneBy({ id: version.currentRevisionId! });
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
   * Rename (called by the agents service inside its transaction, agent row locked). The live version gets two
   * revisions at most, in this order: the live revision's bundle with `bundle.name` = the new name, made live at
   * once (the live version id does not change); then, when the version has unpublished content (its current
   * revision is not the live one), that content with the new name, which stays the current revision, so the next
   * publish ships the pushed content under the new name instead of losing it. Returns the change to announce
   * after commit, or null when the live revision did not move.
   */
  async republishLiveWithName(em: EntityManager, agent: AgentEntity, name: string): Promise<LiveRevisionChange | null> {
    if (!agent.liveVersionId || !agent.liveRevisionId) return null;
    // The version row lock comes first: a concurrent push then lands before or after both revisions.
    const version = await this.findVersion(em, agent.id, agent.liveVersionId, true);
    const revisions = em.getRepository(AgentRevisionEntity);
    const live = await revisions.findOneBy({ id: agent.liveRevisionId });
    if (!live) return null;
    const message = `Agent renamed to "${name}"`;
    let change: LiveRevisionChange | null = null;
    const renamedLive: Bundle = { ...live.bundle, name };
    if (bundleDigest(renamedLive) !== live.digest) {
      change = await this.moveLivePointer(em, agent, version.id, await this.commitRevision(em, version, renamedLive, message), 'rename');
    }
    if (version.currentRevisionId !== live.id) {
      const current = await revisions.findOneByOrFail({ id: version.currentRevisionId! });
      const renamedCurrent: Bundle = { ...current.bundle, name };
      // Re-committed even when its name is already right, if the live rename took its place as the newest revision.
      if (change || bundleDigest(renamedCurrent) !== current.digest) await this.commitRevision(em, version, renamedCurrent, message);
    }
    return change;
  }

  /** Agent delete (inside the agents service's transaction): hard-deletes the versions and, by cascade, revisions. */
  async deleteAllOfAgent(em: EntityManager, agentId: string): Promise<void> {
    await em.query(`DELETE FROM agent_versions WHERE agent_id = $1`, [agentId]);
  }

  private async commitRevision(
    em: EntityManager,
    version: AgentVersionEntity,
    bundle: Bundle,
    message: string | null,
  ): Promise<AgentRevisionEntity> {
    const [{ next }] = (await em.query(`SELECT COALESCE(MAX(revision_number), -1) + 1 AS next FROM agent_revisions WHERE version_id = $1`, [
      version.id,
    ])) as [{ next: number }];
    const revision = await this.insertRevision(em, version, Number(next), bundle, message);
    await em.getRepository(AgentVersionEntity).update({ id: version.id }, { currentRevisionId: revision.id });
    return revision;
  }

  private async insertRevision(
    em: EntityManager,
    version: AgentVersionEntity,
    revisionNumber: number,
    bundle: Bundle,
    message: string | null,
  ): Promise<AgentRevisionEntity> {
    return em.getRepository(AgentRevisionEntity).save({
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
  }

  private async moveLivePointer(
    em: EntityManager,
    agent: AgentEntity,
    versionId: string,
    revision: AgentRevisionEntity,
    reason: LiveRevisionChange['reason'],
  ): Promise<LiveRevisionChange> {
    await em.query(
      `UPDATE agents SET live_version_id = $2, live_revision_id = $3, live_version_tag = $4, updated_at = now() WHERE id = $1`,
      [agent.id, versionId, revision.id, revision.versionTag],
    );
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

  private async startingBundle(em: EntityManager, agent: AgentEntity, dto: CreateVersionDto): Promise<Bundle> {
    switch (dto.source) {
      case 'empty':
        return { schema_version: 1, name: agent.name };
      case 'template': {
        const bundle = this.bundles.templateBundle(dto.template!);
        if (!bundle) throw ValidationError.field('template', `template must be an id from GET /management/v1/templates`);
        return this.validator.assertValid({ ...bundle, name: agent.name });
      }
      case 'clone': {
        const rows = (await em.query(
          `SELECT r.bundle FROM agent_versions v JOIN agent_revisions r ON r.id = v.current_revision_id WHERE v.id = $1 AND v.agent_id = $2`,
          [dto.from_version_id!.toLowerCase(), agent.id],
        )) as Array<{ bundle: Bundle }>;
        if (!rows[0]) throw ValidationError.field('from_version_id', 'from_version_id must name a version of this agent');
        // Stored before a rule tightened (e.g. patterns now run on RE2): a new version starts only from a valid bundle.
        return this.validator.assertValid(rows[0].bundle);
      }
    }
  }

  private async lockAgent(em: EntityManager, who: Principal, agentId: string): Promise<AgentEntity> {
    const agent = await findVisibleAgent(em, who.organizationId, agentId, true);
    if (!agent) throw new NotFoundError('Agent');
    return agent;
  }

  private async visibleAgent(who: Principal, agentId: string): Promise<AgentEntity> {
    const agent = await findVisibleAgent(this.dataSource.manager, who.organizationId, agentId);
    if (!agent) throw new NotFoundError('Agent');
    return agent;
  }

  private async findVersion(em: EntityManager, agentId: string, versionId: string, lock = false): Promise<AgentVersionEntity> {
    const qb = em
      .getRepository(AgentVersionEntity)
      .createQueryBuilder('v')
      .where('v.id = :versionId AND v.agent_id = :agentId', { versionId: versionId.toLowerCase(), agentId });
    if (lock) qb.setLock('pessimistic_write');
    const version = await qb.getOne();
    if (!version) throw new NotFoundError('Version');
    return version;
  }

  private async item(agentId: string, versionId: string): Promise<VersionResponseDto> {
    const row = await readVersionItem(
      (text, values) => this.sql.rows<VersionItemRow>(text, values),
      agentId.toLowerCase(),
      versionId.toLowerCase(),
    );
    if (!row) throw new NotFoundError('Version');
    return toVersionResponse(row);
  }
}

function normalizeTags(tags: string[] | null | undefined): string[] {
  return [...new Set((tags ?? []).map((t) => t.trim()).filter(Boolean))];
}
