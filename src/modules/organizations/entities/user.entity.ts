import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../../database/timestamped.entity.js';

@Entity({ name: 'users' })
export class UserEntity extends TimestampedEntity {
  @Column({ name: 'organization_id', type: 'char', length: 24 })
  organizationId: string;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  /** argon2id hash. */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;
}
