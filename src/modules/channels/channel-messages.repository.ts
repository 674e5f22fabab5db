import { Injectable } from '@nestjs/common';
import { SqlService } from '../../database/sql.service.js';
import type { Channel, ChannelMessageKind, ChannelMessageStatus } from './channels.constants.js';
import type { UnroutedReason } from './entities/channel-unrouted-message.entity.js';

export interface NewChannelMessage {
  id: string;
  organizationId: string;
  agentId: string;
  threadId: string;
  channel: Channel;
  direction: 'inbound' | 'outbound';
  kind: ChannelMessageKind;
  providerMessageId: string | null;
  fromNumber: string;
  toNumber: string;
  body: string;
  status: ChannelMessageStatus;
  error: string | null;
  inReplyTo: string | null;
  interactionId: string | null;
}

/** A channel thread found from an inbound message's numbers. */
export interface ChannelConversation {
  threadId: string;
  organizationId: string;
  agentId: string;
  userId: string;
  externalId: string | null;
  channel: Channel;
  phoneNumber: string;
  senderNumber: string;
}

export interface NewUnroutedMessage {
  id: string;
  channel: Channel;
  providerMessageId: string;
  fromNumber: string;
  toNumber: string;
  body: string;
  reason: UnroutedReason;
  detail: string;
  organizationIds: string[];
}

export interface OutboundRow {
  id: string;
  thread_id: string;
  channel: Channel;
  from_number: string;
  to_number: string;
  body: string;
  attempts: number;
}

/** An outbound message after a status change (what `channel.message.status` webhooks report). */
export interface ChannelStatusRow {
  id: string;
  organization_id: string;
  agent_id: string;
  thread_id: string;
  channel: Channel;
  status: string;
  error: string | null;
}

const STATUS_RETURNING = 'RETURNING id, organization_id, agent_id, thread_id, channel, status, error';

export interface InboundRow {
  id: string;
  organization_id: string;
  agent_id: string;
  thread_id: string;
  channel: Channel;
  from_number: string;
  to_number: string;
  event_id: string | null;
  interaction_id: string | null;
}

/** The next inbound message of a thread to answer, and whether an earlier reply still waits for delivery. */
export interface NextToAnswer extends InboundRow {
  earlier_reply_queued: boolean;
}

const MESSAGE_COLUMNS = `id, organization_id, agent_id, thread_id, channel, direction, kind, provider_message_id, from_number,
  to_number, body, status, error, in_reply_to, interaction_id`;
const messageValues = (m: NewChannelMessage) => [
  m.id,
  m.organizationId,
  m.agentId,
  m.threadId,
  m.channel,
  m.direction,
  m.kind,
  m.providerMessageId,
  m.fromNumber,
  m.toNumber,
  m.body,
  m.status,
  m.error,
  m.inReplyTo,
  m.interactionId,
];
const MESSAGE_PLACEHOLDERS = '$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15';

/** SQL of `channel_messages` and `channel_unrouted_messages` (channel threads themselves are the conversation store's). */
@Injectable()
export class ChannelMessagesRepository {
  constructor(private readonly sql: SqlService) {}

  /** The opening message of a channel thread (in the caller's transaction, with the thread). */
  async recordOpening(message: NewChannelMessage): Promise<void> {
    await this.sql.rows(`INSERT INTO channel_messages (${MESSAGE_COLUMNS}) VALUES (${MESSAGE_PLACEHOLDERS})`, messageValues(message));
  }

  /** Keeps an inbound message routed to no organization for operators, once per provider message id. */
  async recordUnrouted(message: NewUnroutedMessage): Promise<void> {
    await this.sql.rows(
      `INSERT INTO channel_unrouted_messages (id, channel, provider_message_id, from_number, to_number, body, reason, detail, organization_ids)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (channel, provider_message_id) DO NOTHING`,
      [
        message.id,
        message.channel,
        message.providerMessageId,
        message.fromNumber,
        message.toNumber,
        message.body,
        message.reason,
        message.detail,
        message.organizationIds,
      ],
    );
  }

  /**
   * Records an inbound message once per provider message id. Returns the row, and whether this call
   * created it (false for a provider retry of a message already recorded).
   */
  async recordInbound(message: NewChannelMessage): Promise<{ row: InboundRow; created: boolean }> {
    const inserted = await this.sql.one<InboundRow>(
      `INSERT INTO channel_messages (${MESSAGE_COLUMNS}) VALUES (${MESSAGE_PLACEHOLDERS})
       ON CONFLICT (channel, provider_message_id) WHERE direction = 'inbound' DO NOTHING
       RETURNING id, organization_id, agent_id, thread_id, channel, from_number, to_number, event_id, interaction_id`,
      messageValues(message),
    );
    if (inserted) return { row: inserted, created: true };
    const existing = await this.sql.one<InboundRow>(
      `SELECT id, organization_id, agent_id, thread_id, channel, from_number, to_number, event_id, interaction_id FROM channel_messages
        WHERE channel = $1 AND provider_message_id = $2 AND direction = 'inbound'`,
      [message.channel, message.providerMessageId],
    );
    if (!existing) throw new Error('Inbound channel message vanished between insert and read');
    return { row: existing, created: false };
  }

  async setEventId(inboundId: string, eventId: string): Promise<void> {
    await this.sql.rows(`UPDATE channel_messages SET event_id = $2, updated_at = now() WHERE id = $1`, [inboundId, eventId]);
  }

  async findInboundByEvent(eventId: string): Promise<InboundRow | undefined> {
    return this.sql.one<InboundRow>(
      `SELECT id, organization_id, agent_id, thread_id, channel, from_number, to_number, event_id, interaction_id FROM channel_messages
        WHERE event_id = $1 AND direction = 'inbound'`,
      [eventId],
    );
  }

  /** Records the agent's reply to an inbound message; false when that message already has one. */
  async recordReply(reply: NewChannelMessage): Promise<boolean> {
    const rows = await this.sql.rows(
      `INSERT INTO channel_messages (${MESSAGE_COLUMNS}) VALUES (${MESSAGE_PLACEHOLDERS})
       ON CONFLICT (in_reply_to) WHERE in_reply_to IS NOT NULL DO NOTHING RETURNING id`,
      messageValues(reply),
    );
    return rows.length > 0;
  }

  /** Records an operator's message (or a handoff note) to the phone, once per thread item (its id); false when recorded before. */
  async recordOperatorMessage(message: NewChannelMessage): Promise<boolean> {
    const rows = await this.sql.rows(
      `INSERT INTO channel_messages (${MESSAGE_COLUMNS}) VALUES (${MESSAGE_PLACEHOLDERS}) ON CONFLICT (id) DO NOTHING RETURNING id`,
      messageValues(message),
    );
    return rows.length > 0;
  }

  /** Starts a delivery attempt of a queued outbound message; undefined when it is no longer queued (idempotent jobs). */
  async beginAttempt(messageId: string): Promise<OutboundRow | undefined> {
    return this.sql.one<OutboundRow>(
      `UPDATE channel_messages SET attempts = attempts + 1, updated_at = now()
        WHERE id = $1 AND direction = 'outbound' AND status = 'queued'
        RETURNING id, thread_id, channel, from_number, to_number, body, attempts`,
      [messageId],
      'channel_begin_attempt',
    );
  }

  markSent(messageId: string, providerMessageId: string): Promise<ChannelStatusRow | undefined> {
    return this.sql.one<ChannelStatusRow>(
      `UPDATE channel_messages SET status = 'sent', provider_message_id = $2, error = NULL, sent_at = now(), updated_at = now()
        WHERE id = $1 AND status = 'queued' ${STATUS_RETURNING}`,
      [messageId, providerMessageId],
      'channel_mark_sent',
    );
  }

  /** Keeps the message queued (another attempt follows) but records why this one failed. */
  async recordAttemptError(messageId: string, error: string): Promise<void> {
    await this.sql.rows(`UPDATE channel_messages SET error = $2, updated_at = now() WHERE id = $1 AND status = 'queued'`, [
      messageId,
      error,
    ]);
  }

  markUndelivered(messageId: string, error: string): Promise<ChannelStatusRow | undefined> {
    return this.sql.one<ChannelStatusRow>(
      `UPDATE channel_messages SET status = 'undelivered', error = $2, updated_at = now() WHERE id = $1 AND status = 'queued' ${STATUS_RETURNING}`,
      [messageId, error],
    );
  }

  /** Provider status callbacks: moves a sent message on (sent → delivered / undelivered). */
  async applyProviderStatus(
    channel: Channel,
    providerMessageId: string,
    status: 'sent' | 'delivered' | 'undelivered',
    error: string | null,
  ): Promise<ChannelStatusRow | undefined> {
    return this.sql.one<ChannelStatusRow>(
      `UPDATE channel_messages SET status = $3, error = COALESCE($4, error), updated_at = now()
        WHERE channel = $1 AND provider_message_id = $2 AND direction = 'outbound' AND status IN ('queued', 'sent') ${STATUS_RETURNING}`,
      [channel, providerMessageId, status, error],
    );
  }

  /** Outbound messages still queued a while after they were recorded: their job may have been lost (Redis down at enqueue). */
  async staleQueued(olderThanSeconds: number, limit: number): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>(
      `SELECT id FROM channel_messages
        WHERE direction = 'outbound' AND status = 'queued' AND updated_at < now() - make_interval(secs => $1)
        ORDER BY created_at LIMIT $2`,
      [olderThanSeconds, limit],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Inbound messages recorded but not yet handed to the events pipeline (the hand-off failed or its process
   * died): claims up to `limit` of them for this caller by bumping `updated_at` (others skip them for a while).
   */
  async claimUnhanded(olderThanSeconds: number, limit: number): Promise<InboundRow[]> {
    return this.sql.rows<InboundRow>(
      `UPDATE channel_messages SET updated_at = now()
        WHERE id IN (SELECT id FROM channel_messages
                      WHERE direction = 'inbound' AND status = 'received' AND event_id IS NULL
                        AND updated_at < now() - make_interval(secs => $1)
                      ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id, organization_id, agent_id, thread_id, channel, from_number, to_number, event_id, interaction_id`,
      [olderThanSeconds, limit],
    );
  }

  /** Claims one recorded inbound message for a hand-off retry, when nobody touched it for a while. */
  async claimForRetry(inboundId: string, olderThanSeconds: number): Promise<boolean> {
    const rows = await this.sql.rows(
      `UPDATE channel_messages SET updated_at = now()
        WHERE id = $1 AND status = 'received' AND event_id IS NULL AND updated_at < now() - make_interval(secs => $2)
        RETURNING id`,
      [inboundId, olderThanSeconds],
    );
    return rows.length > 0;
  }

  /** The inbound message could not reach the agent (e.g. the agent was deleted or unpublished). */
  async markInboundUnhandled(inboundId: string, error: string): Promise<void> {
    await this.sql.rows(
      `UPDATE channel_messages SET status = 'undelivered', error = $2, updated_at = now() WHERE id = $1 AND direction = 'inbound'`,
      [inboundId, error],
    );
  }

  async inboundBody(inboundId: string): Promise<{ body: string; channel: Channel } | undefined> {
    return this.sql.one(`SELECT body, channel FROM channel_messages WHERE id = $1`, [inboundId]);
  }

  /**
   * The thread's earliest inbound message still awaiting its answer (received, not answered), with whether the
   * reply to an earlier one is still queued for delivery: replies go out in the order the messages came in.
   */
  async nextToAnswer(threadId: string): Promise<NextToAnswer | undefined> {
    return this.sql.one<NextToAnswer>(
      `SELECT m.id, m.organization_id, m.agent_id, m.thread_id, m.channel, m.from_number, m.to_number, m.event_id, m.interaction_id,
              EXISTS (SELECT 1 FROM channel_messages e JOIN channel_messages r ON r.in_reply_to = e.id
                       WHERE e.thread_id = m.thread_id AND e.direction = 'inbound' AND (e.created_at, e.id) < (m.created_at, m.id)
                         AND r.status = 'queued') AS earlier_reply_queued
         FROM channel_messages m
        WHERE m.thread_id = $1 AND m.direction = 'inbound' AND m.status = 'received' AND m.interaction_id IS NULL
        ORDER BY m.created_at, m.id
        LIMIT 1`,
      [threadId],
      'channel_next_to_answer',
    );
  }

  /** The inbound message was answered by this turn (whether or not the reply had anything to send). */
  async markInboundAnswered(inboundId: string, interactionId: string): Promise<void> {
    await this.sql.rows(`UPDATE channel_messages SET interaction_id = $2, updated_at = now() WHERE id = $1 AND direction = 'inbound'`, [
      inboundId,
      interactionId,
    ]);
  }

  /** Threads with an inbound message handed to the pipeline but not answered for a while (an announcement may have been lost). */
  async unansweredThreads(olderThanSeconds: number, limit: number): Promise<string[]> {
    const rows = await this.sql.rows<{ thread_id: string }>(
      `SELECT DISTINCT thread_id FROM channel_messages
        WHERE direction = 'inbound' AND status = 'received' AND event_id IS NOT NULL AND interaction_id IS NULL
          AND updated_at < now() - make_interval(secs => $1)
        LIMIT $2`,
      [olderThanSeconds, limit],
    );
    return rows.map((r) => r.thread_id);
  }

  /** The status of a channel thread's opening message. */
  async openingStatus(threadId: string): Promise<Exclude<ChannelMessageStatus, 'received'> | undefined> {
    const row = await this.sql.one<{ status: Exclude<ChannelMessageStatus, 'received'> }>(
      `SELECT status FROM channel_messages WHERE thread_id = $1 AND kind = 'opening' LIMIT 1`,
      [threadId],
      'channel_opening_status',
    );
    return row?.status;
  }
}
