import { Column, Entity } from 'typeorm';
import { CreatedEntity } from '../../../database/timestamped.entity.js';

@Entity({ name: 'organization_api_keys' })
export class OrganizationApiKeyEntity extends CreatedEntity {
  @Column({ name: 'organization_id', type: 'char', length: 24 })
  organizationId: string;

  /** Hex SHA-256 of the whole key; the key itself is never stored. */
  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash: string;

  /** First characters of the key, to tell keys apart in listings. */
  @Column({ name: 'key_prefix', type: 'varchar', length: 16 })
  keyPrefix: string;

  @Column({ name: 'revoked_at', type: 'timestamptz', precision: 3, nullable: true })
  revokedAt: Date | null;
}
