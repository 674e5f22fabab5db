import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Messaging channels (WhatsApp, SMS). A channel thread is an ordinary `threads` row that also records its
 * channel, the recipient's phone number and the sender (a connected sender's id, or none for the platform
 * default, and the sender number actually used). `senders` are an organization's connected numbers.
 * `channel_messages` records every message that crossed the provider boundary, in both directions: the
 * opening (welcome) message, inbound messages from the phone (unique per provider message id: the dedupe
 * key) and the agent's replies (at most one per inbound message).
 */
export class Channels1732240500000 implements MigrationInterface {
  name = 'Channels1732240500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE senders (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        channel varchar(16) NOT NULL,
        phone_number varchar(16) NOT NULL,
        display_name varchar(100),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT ck_senders_channel CHECK (channel IN ('whatsapp', 'sms'))
      );
      CREATE UNIQUE INDEX uq_senders_organization_channel_number ON senders (organization_id, channel, phone_number);
      CREATE INDEX ix_senders_organization_created ON senders (organization_id, created_at, id);

      ALTER TABLE threads
        ADD COLUMN channel varchar(16),
        ADD COLUMN phone_number varchar(16),
        ADD COLUMN sender_id char(24),
        ADD COLUMN sender_number varchar(16),
        ADD COLUMN agent_display_name varchar(100);
      -- Inbound resolution: the latest thread of (channel, sender number, recipient phone).
      CREATE INDEX ix_threads_channel_conversation ON threads (channel, sender_number, phone_number, created_at DESC)
        WHERE channel IS NOT NULL;

      CREATE TABLE channel_messages (
        id char(24) PRIMARY KEY,
        organization_id char(24) NOT NULL,
        agent_id char(24) NOT NULL,
        thread_id char(24) NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
        channel varchar(16) NOT NULL,
        direction varchar(8) NOT NULL,
        kind varchar(16) NOT NULL,
        provider_message_id varchar(64),
        from_number varchar(16) NOT NULL,
        to_number varchar(16) NOT NULL,
        body text NOT NULL,
        status varchar(16) NOT NULL,
        error text,
        attempts integer NOT NULL DEFAULT 0,
        in_reply_to char(24) REFERENCES channel_messages(id) ON DELETE CASCADE,
        event_id char(24),
        interaction_id char(24),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        sent_at timestamptz(3),
        CONSTRAINT ck_channel_messages_direction CHECK (direction IN ('inbound', 'outbound')),
        CONSTRAINT ck_channel_messages_kind CHECK (kind IN ('opening', 'inbound', 'reply')),
        CONSTRAINT ck_channel_messages_status CHECK (status IN ('queued', 'sent', 'delivered', 'undelivered', 'received'))
      );
      CREATE INDEX ix_channel_messages_thread_created ON channel_messages (thread_id, created_at, id);
      -- The provider retries webhooks: one row per inbound provider message id.
      CREATE UNIQUE INDEX uq_channel_messages_inbound_provider_id ON channel_messages (channel, provider_message_id)
        WHERE direction = 'inbound';
      -- At most one agent reply per inbound message, however often the turn is reported.
      CREATE UNIQUE INDEX uq_channel_messages_reply ON channel_messages (in_reply_to) WHERE in_reply_to IS NOT NULL;
      CREATE INDEX ix_channel_messages_event ON channel_messages (event_id) WHERE event_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE channel_messages;
      DROP INDEX ix_threads_channel_conversation;
      ALTER TABLE threads DROP COLUMN channel, DROP COLUMN phone_number, DROP COLUMN sender_id,
        DROP COLUMN sender_number, DROP COLUMN agent_display_name;
      DROP TABLE senders;
    `);
  }
}
