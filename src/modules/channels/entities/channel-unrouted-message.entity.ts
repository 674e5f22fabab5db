import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../../database/timestamped.entity.js';
import type { Channel } from '../channels.constants.js';

/** Why an inbound message was routed to no organization. */
export type UnroutedReason = 'ambiguous_shared_sender';

/**
 * An inbound message routed to no organization, kept for operators (written with SQL in
 * ChannelMessagesRepository; the entity registers the table with the schema tooling and test resets).
 */
@Entity({ name: 'channel_unrouted_messages' })
export class ChannelUnroutedMessageEntity extends TimestampedEntity {
  @Column({ type: 'varchar', length: 16 })
  channel: Channel;

  @Column({ name: 'provider_message_id', type: 'varchar', length: 64 })
  providerMessageId: string;

  @Column({ name: 'from_number', type: 'varchar', length: 16 })
  fromNumber: string;

  @Column({ name: 'to_number', type: 'varchar', length: 16 })
  toNumber: string;

  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'varchar', length: 32 })
  reason: UnroutedReason;

  @Column({ type: 'text' })
  detail: string;

  /** The organizations whose open conversations made the message ambiguous. */
  @Column({ name: 'organization_ids', type: 'char', length: 24, array: true })
  organizationIds: string[];
}
