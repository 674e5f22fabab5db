import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Inbound channel messages the service would not route to any organization (the phone has open conversations
 * with several organizations on a shared sender number), kept for operators: one row per provider message id.
 * Senders gain an index on the number alone: inbound routing asks which organizations connected a number.
 */
export class ChannelUnroutedMessages1732240712000 implements MigrationInterface {
  name = 'ChannelUnroutedMessages1732240712000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE channel_unrouted_messages (
        id char(24) PRIMARY KEY,
        channel varchar(16) NOT NULL,
        provider_message_id varchar(64) NOT NULL,
        from_number varchar(16) NOT NULL,
        to_number varchar(16) NOT NULL,
        body text NOT NULL,
        reason varchar(32) NOT NULL,
        detail text NOT NULL,
        organization_ids char(24)[] NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX uq_channel_unrouted_messages_provider_id ON channel_unrouted_messages (channel, provider_message_id);
      CREATE INDEX ix_channel_unrouted_messages_created ON channel_unrouted_messages (created_at, id);
      CREATE INDEX ix_senders_channel_number ON senders (channel, phone_number);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX ix_senders_channel_number;
      DROP TABLE channel_unrouted_messages;
    `);
  }
}
