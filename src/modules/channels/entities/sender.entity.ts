import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../../database/timestamped.entity.js';
import type { Channel } from '../channels.constants.js';

/** A sender number an organization has connected for a channel. */
@Entity({ name: 'senders' })
export class SenderEntity extends TimestampedEntity {
  @Column({ name: 'organization_id', type: 'char', length: 24 })
  organizationId: string;

  @Column({ type: 'varchar', length: 16 })
  channel: Channel;

  @Column({ name: 'phone_number', type: 'varchar', length: 16 })
  phoneNumber: string;

  @Column({ name: 'display_name', type: 'varchar', length: 100, nullable: true })
  displayName: string | null;
}
