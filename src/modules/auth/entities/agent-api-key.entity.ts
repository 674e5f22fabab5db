import { Column, Entity } from 'typeorm';
import { CreatedEntity } from '../../../database/timestamped.entity.js';

@Entity({ name: 'agent_api_keys' })
export class AgentApiKeyEntity extends CreatedEntity {
  @Column({ name: 'organization_id', type: 'char', length: 24 })
  organizationId: string;

  @Column({ name: 'agent_id', type: 'char', length: 24 })
  agentId: string;

  @Column({ name: 'key_hash', type: 'char', length: 64 })
  keyHash: string;

  @Column({ name: 'key_prefix', type: 'varchar', length: 16 })
  keyPrefix: string;

  @Column({ name: 'revoked_at', type: 'timestamptz', precision: 3, nullable: true })
  revokedAt: Date | null;
}
