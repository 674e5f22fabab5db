import { Column, Entity } from 'typeorm';
import { CreatedEntity } from '../../../database/timestamped.entity.js';
import type { Bundle } from '../../bundles/bundle.types.js';

/** An immutable bundle of a version: `vN.0` is its starting content, each push commits `vN.R`. */
@Entity({ name: 'agent_revisions' })
export class AgentRevisionEntity extends CreatedEntity {
  @Column({ name: 'organization_id', type: 'char', length: 24 })
  organizationId: string;

  @Column({ name: 'agent_id', type: 'char', length: 24 })
  agentId: string;

  @Column({ name: 'version_id', type: 'char', length: 24 })
  versionId: string;

  @Column({ name: 'revision_number', type: 'integer' })
  revisionNumber: number;

  @Column({ name: 'version_tag', type: 'varchar', length: 32 })
  versionTag: string;

  @Column({ type: 'jsonb' })
  bundle: Bundle;

  /** `sha256:` + hex of the bundle's canonical JSON. */
  @Column({ type: 'varchar', length: 71 })
  digest: string;

  @Column({ type: 'text', nullable: true })
  message: string | null;
}
