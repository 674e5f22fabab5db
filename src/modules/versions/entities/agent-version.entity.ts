import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../../database/timestamped.entity.js';

export type VersionStatus = 'draft' | 'published' | 'archived';

/** A version of an agent: metadata and a pointer to its current (latest) revision, which holds the bundle. */
@Entity({ name: 'agent_versions' })
export class AgentVersionEntity extends TimestampedEntity {
  @Column({ name: 'organization_id', type: 'char', length: 24 })
  organizationId: string;

  @Column({ name: 'agent_id', type: 'char', length: 24 })
  agentId: string;

  /** 1, 2, 3… per agent. */
  @Column({ type: 'integer' })
  number: number;

  @Column({ type: 'varchar', length: 16, default: 'draft' })
  status: VersionStatus;

  @Column({ type: 'text', nullable: true })
  label: string | null;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  tags: string[];

  @Column({ type: 'text', nullable: true })
  notes: string | null;

  @Column({ name: 'current_revision_id', type: 'char', length: 24, nullable: true })
  currentRevisionId: string | null;
}
