import { Injectable } from '@nestjs/common';
import { SqlService } from '../../database/sql.service.js';
import type { Bundle } from '../bundles/bundle.types.js';

/** One arm of a stored split, with the tag of the revision it answers with. */
export interface TrafficArmRow {
  version_id: string;
  revision_id: string;
  version_tag: string;
  percent: number;
  position: number;
  created_at: Date;
}

/** A routing arm as the messaging hot path needs it; `bundle` is null for the live arm (the live revision answers). */
export interface RoutingArmRow {
  version_id: string;
  revision_id: string;
  version_tag: string;
  percent: number;
  digest: string;
  bundle: Bundle | null;
}

/** The agent's live pointer and revision, and its split's arms (null without a split): one statement. */
export interface RoutingRow {
  project_id: string;
  runtime: 'v1' | 'v2';
  live_version_id: string | null;
  live_revision_id: string | null;
  live_version_tag: string | null;
  digest: string | null;
  bundle: Bundle | null;
  arms: RoutingArmRow[] | null;
}

/** A revision a thread is pinned to, with its version's status. */
export interface PinnedRevisionRow {
  id: string;
  version_id: string;
  version_tag: string;
  digest: string;
  bundle: Bundle;
  status: 'draft' | 'published' | 'archived';
}

/** `agent_traffic_splits`: the only place it is named (migrations aside). Inside a UnitOfWork every call joins it. */
@Injectable()
export class TrafficRepository {
  constructor(private readonly sql: SqlService) {}

  /** The messaging hot path's one read on a cache miss: live pointer, live revision and the split's arms. */
  routing(organizationId: string, agentId: string): Promise<RoutingRow | undefined> {
    return this.sql.one<RoutingRow>(
      `SELECT a.project_id, a.runtime, a.live_version_id, a.live_revision_id, a.live_version_tag, r.digest, r.bundle,
              (SELECT json_agg(json_build_object(
                        'version_id', s.version_id, 'revision_id', s.revision_id, 'version_tag', sr.version_tag,
                        'percent', s.percent, 'digest', sr.digest,
                        'bundle', CASE WHEN s.version_id = a.live_version_id THEN NULL ELSE sr.bundle END) ORDER BY s.position)
                 FROM agent_traffic_splits s JOIN agent_revisions sr ON sr.id = s.revision_id
                WHERE s.agent_id = a.id) AS arms
         FROM agents a LEFT JOIN agent_revisions r ON r.id = a.live_revision_id
        WHERE a.id = $1 AND a.organization_id = $2 AND a.deleted_at IS NULL`,
      [agentId, organizationId],
      'live_agent_routing',
    );
  }

  /** A revision of the agent with its version's status (a thread staying on a version outside the split). */
  pinnedRevision(organizationId: string, agentId: string, revisionId: string): Promise<PinnedRevisionRow | undefined> {
    return this.sql.one<PinnedRevisionRow>(
      `SELECT r.id, r.version_id, r.version_tag, r.digest, r.bundle, v.status
         FROM agent_revisions r JOIN agent_versions v ON v.id = r.version_id
        WHERE r.id = $1 AND r.agent_id = $2 AND r.organization_id = $3`,
      [revisionId, agentId, organizationId],
      'live_agent_pinned_revision',
    );
  }

  arms(agentId: string): Promise<TrafficArmRow[]> {
    return this.sql.rows<TrafficArmRow>(
      `SELECT s.version_id, s.revision_id, r.version_tag, s.percent, s.position, s.created_at
         FROM agent_traffic_splits s JOIN agent_revisions r ON r.id = s.revision_id
        WHERE s.agent_id = $1 ORDER BY s.position`,
      [agentId],
    );
  }

  /** Replaces the agent's split with these arms (in order). */
  async replace(
    organizationId: string,
    agentId: string,
    arms: Array<{ versionId: string; revisionId: string; percent: number }>,
  ): Promise<void> {
    await this.sql.rows(`DELETE FROM agent_traffic_splits WHERE agent_id = $1`, [agentId]);
    await this.sql.rows(
      `INSERT INTO agent_traffic_splits (agent_id, version_id, organization_id, revision_id, position, percent, created_at)
       SELECT $1, arm.version_id, $2, arm.revision_id, arm.position - 1, arm.percent, now()
         FROM unnest($3::char(24)[], $4::char(24)[], $5::smallint[]) WITH ORDINALITY AS arm(version_id, revision_id, percent, position)`,
      [agentId, organizationId, arms.map((a) => a.versionId), arms.map((a) => a.revisionId), arms.map((a) => a.percent)],
    );
  }

  /** Ends the agent's split; how many arms it had. */
  async clear(agentId: string): Promise<number> {
    const rows = await this.sql.rows<{ version_id: string }>(`DELETE FROM agent_traffic_splits WHERE agent_id = $1 RETURNING version_id`, [
      agentId,
    ]);
    return rows.length;
  }

  /** The arm `from` now answers with `to` (same share and place), or keeps its version with another revision. */
  async moveArm(agentId: string, fromVersionId: string, to: { versionId: string; revisionId: string }): Promise<void> {
    await this.sql.rows(`UPDATE agent_traffic_splits SET version_id = $3, revision_id = $4 WHERE agent_id = $1 AND version_id = $2`, [
      agentId,
      fromVersionId,
      to.versionId,
      to.revisionId,
    ]);
  }
}
