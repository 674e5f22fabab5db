import { Column, Entity } from 'typeorm';
import { CreatedEntity } from '../../database/timestamped.entity.js';

/** One management write, appended in the transaction of the write (see docs/governance.md "Audit log"). */
@Entity({ name: 'audit_events' })
export class AuditEventEntity extends CreatedEntity {
  @Column({ name: 'organization_id', type: 'char', length: 24 })
  organizationId: string;

  /** `org_api_key`, `session`, `agent_api_key`, `client_token` or `system`. */
  @Column({ name: 'actor_kind', type: 'varchar', length: 20 })
  actorKind: string;

  /** The credential's id (key id; the user id for a login session; the job's name for `system`). */
  @Column({ name: 'actor_id', type: 'varchar', length: 100 })
  actorId: string;

  /** The user of a login session, else null. */
  @Column({ name: 'actor_user_id', type: 'char', length: 24, nullable: true })
  actorUserId: string | null;

  @Column({ type: 'varchar', length: 100 })
  action: string;

  @Column({ name: 'resource_type', type: 'varchar', length: 50 })
  resourceType: string;

  @Column({ name: 'resource_id', type: 'varchar', length: 100 })
  resourceId: string;

  /** The request's x-request-id; null for writes no request made (jobs). */
  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true })
  requestId: string | null;

  @Column({ type: 'jsonb', nullable: true })
  before: object | null;

  @Column({ type: 'jsonb', nullable: true })
  after: object | null;
}
