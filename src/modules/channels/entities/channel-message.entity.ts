import { Column, Entity } from 'typeorm';
import { TimestampedEntity } from '../../../database/timestamped.entity.js';
import type { Channel, ChannelMessageKind, ChannelMessageStatus } from '../channels.constants.js';

/**
 * One message that crossed the provider boundary. Written and read with SQL in ChannelMessagesRepository
 * (conditional status updates); the entity registers the table with the schema tooling and test resets.
 */
@Entity({ name: 'channel_messages' })
export class ChannelMessageEntity extends TimestampedEntity {
  @Column({ name: 'organization_id', type: 'char', length: 24 })
  organizationId: string;

  @Column({ name: 'agent_id', type: 'char', length: 24 })
  agentId: string;

  @Column({ name: 'thread_id', type: 'char', length: 24 })
  threadId: string;

  @Column({ type: 'varchar', length: 16 })
  channel: Channel;

  @Column({ type: 'varchar', length: 8 })
  direction: 'inbound' | 'outbound';

  @Column({ type: 'varchar', length: 16 })
  kind: ChannelMessageKind;

  @Column({ name: 'provider_message_id', type: 'varchar', length: 64, nullable: true })
  providerMessageId: string | null;

  @Column({ name: 'from_number', type: 'varchar', length: 16 })
  fromNumber: string;

  @Column({ name: 'to_number', type: 'varchar', length: 16 })
  toNumber: string;

  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'varchar', length: 16 })
  status: ChannelMessageStatus;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'in_reply_to', type: 'char', length: 24, nullable: true })
  inReplyTo: string | null;

  @Column({ name: 'event_id', type: 'char', length: 24, nullable: true })
  eventId: string | null;

  @Column({ name: 'interaction_id', type: 'char', length: 24, nullable: true })
  interactionId: string | null;

  @Column({ name: 'sent_at', type: 'timestamptz', precision: 3, nullable: true })
  sentAt: Date | null;
}
