import { Column, Entity } from 'typeorm';
import { CreatedEntity } from '../../../database/timestamped.entity.js';

@Entity({ name: 'publishable_keys' })
export class PublishableKeyEntity extends CreatedEntity {
  @Column({ name: 'organization_id', type: 'char', length: 24 })
  organizationId: string;

  @Column({ name: 'agent_id', type: 'char', length: 24 })
  agentId: string;

  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash: string;

  @Column({ name: 'key_prefix', type: 'varchar', length: 16 })
  keyPrefix: string;

  /** Browser origins allowed to exchange the key and call messaging with its tokens; empty = any. */
  @Column({ name: 'allowed_origins', type: 'text', array: true, default: () => "'{}'" })
  allowedOrigins: string[];

  /** CIDR ranges (v4 and v6) allowed to exchange the key; empty = any. */
  @Column({ name: 'allowed_ip_ranges', type: 'text', array: true, default: () => "'{}'" })
  allowedIpRanges: string[];

  @Column({ name: 'revoked_at', type: 'timestamptz', precision: 3, nullable: true })
  revokedAt: Date | null;
}
