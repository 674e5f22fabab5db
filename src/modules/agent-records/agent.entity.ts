import type { AgentRuntime } from '../bundles/bundle.types.js';
import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../database/timestamped.entity.js';

@Entity({ name: 'agents' })
export class AgentEntity extends TimestampedEntity {
  /** Denormalised from the project so tenant checks need no join. */
  @Column({ name: 'organization_id', type: 'char', length: 24 })
  organizationId: string;

  @Column({ name: 'project_id', type: 'char', length: 24 })
  projectId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 2, default: 'v1' })
  runtime: AgentRuntime;

  @Column({ name: 'live_version_id', type: 'char', length: 24, nullable: true })
  liveVersionId: string | null;

  @Column({ name: 'live_revision_id', type: 'char', length: 24, nullable: true })
  liveRevisionId: string | null;

  @Column({ name: 'live_version_tag', type: 'varchar', length: 32, nullable: true })
  liveVersionTag: string | null;

  /** A publish or a traffic split that would serve a revision without a passing evaluation is refused (docs/evaluations.md). */
  @Column({ name: 'publish_requires_passing_evaluation', type: 'boolean', default: false })
  publishRequiresPassingEvaluation: boolean;

  /** Set by delete: versions and keys are removed; threads and usage history stay readable and counted. */
  @Column({ name: 'deleted_at', type: 'timestamptz', precision: 3, nullable: true })
  deletedAt: Date | null;
}

/** Locks a visible agent's row for the rest of the current transaction (see `findVisible`). */
export type AgentLock = 'update' | 'share' | false;
