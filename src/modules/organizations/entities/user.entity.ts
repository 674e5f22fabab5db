import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../../database/timestamped.entity.js';

@Entity({ name: 'users' })
export class UserEntity extends TimestampedEntity {
  @Column({ name: 'organization_id', type: 'char', length: 24 })
  organizationId: string;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  /** PHC string: scrypt (auth/passwords.ts), or argon2id from before (rehashed at the next login). */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;
}
