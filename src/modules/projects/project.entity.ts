import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../database/timestamped.entity.js';

@Entity({ name: 'projects' })
export class ProjectEntity extends TimestampedEntity {
  @Column({ name: 'organization_id', type: 'char', length: 24 })
  organizationId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** Set by delete: the project leaves listings at once; its usage history stays. */
  @Column({ name: 'deleted_at', type: 'timestamptz', precision: 3, nullable: true })
  deletedAt: Date | null;

  /** Threads idle longer than this many days are deleted by the retention job; null keeps them (docs/governance.md). */
  @Column({ name: 'thread_retention_days', type: 'integer', nullable: true })
  threadRetentionDays: number | null;
}
