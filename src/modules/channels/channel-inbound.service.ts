import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EventCompleted, EventFailed } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { AppError, ForbiddenError, UnauthorizedError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import { INPUT_LIMITS } from '../../common/validation/input-limits.js';
import { charCount, leadingChars } from '../../common/validation/char-length.js';
import { AppConfig } from '../../config/app-config.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import type { ChannelThread } from '../conversations/conversations.types.js';
import { EventsIngestService } from '../events/events-ingest.service.js';
import { EventsService } from '../events/events.service.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { ChannelMessagesRepository, type ChannelConversation, type InboundRow } from './channel-messages.repository.js';
import { ChannelOutboundService } from './channel-outbound.service.js';
import type { Channel } from './channels.constants.js';
import { CHANNEL_PROVIDER, type ChannelProvider, type InboundChannelMessage } from './providers/channel-provider.js';

/** A recorded inbound message not handed to the events pipeline after this long is handed over by the sweeper. */
const HANDOFF_RETRY_AFTER_SECONDS = 20;
/** An inbound message handed over but unanswered this long is looked at again by the sweeper (a lost announcement). */
const ANSWER_RETRY_AFTER_SECONDS = 60;
const MAX_CARD_LINES = 3;

/**
 * Replies from the phone. The webhook is authenticated by the provider's signature; the message is recorded
 * once per provider message id (`channel_messages`, the dedupe key), resolved to its conversation (the latest
 * channel thread between that sender number and that phone), and handed to the events pipeline, which makes the
 * turn durable and ordered per conversation. When the event's turn is done (`event.completed` / `event.failed` on
 * the bus), the agent's reply is recorded as an outbound message (at most one per inbound message) and delivered
 * like any other; replies leave in the order the messages came in (`answerInOrder`).
 */
@Injectable()
export class ChannelInboundService {
  private readonly logger = new Logger('ChannelInbound');

  constructor(
    @Inject(CHANNEL_PROVIDER) private readonly provider: ChannelProvider,
    private readonly messages: ChannelMessagesRepository,
    private readonly conversations: ConversationsService,
    private readonly outbound: ChannelOutboundService,
    private readonly ingest: EventsIngestService,
    private readonly events: EventsService,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  /** Authenticates a provider webhook call: 401 without a signature, 403 with a wrong one. */
  verify(url: string, params: Record<string, unknown>, signature: string | undefined): void {
    if (!this.provider.configured) throw new ForbiddenError('No channel provider is configured: provider webhooks cannot be verified');
    if (!signature) throw new UnauthorizedError('Missing X-Twilio-Signature: only the channel provider may call this webhook');
    if (!this.provider.verifyWebhook(url, params, signature)) {
      throw new ForbiddenError('The X-Twilio-Signature does not match this request (check CHANNEL_PUBLIC_BASE_URL and the auth token)');
    }
  }

  /**
   * An inbound message from the phone (already verified). Returns once it is recorded and handed over, or
   * recorded as unrouted. Whatever the phone sent is acknowledged (the provider expects 2xx): a body the agent
   * must not see (too long, or text PostgreSQL cannot store) is recorded `undelivered` with the reason instead.
   */
  async receive(channel: Channel, params: Record<string, unknown>): Promise<void> {
    const message = this.provider.parseInbound(channel, params);
    const body = storableExcerpt(message.body);
    const conversation = await this.route(channel, message, body);
    if (!conversation) return this.metrics.channelMessage('inbound', 'unrouted');
    const refusal = bodyRefusal(message.body);
    const { row, created } = await this.messages.recordInbound({
      id: newId(),
      organizationId: conversation.organizationId,
      agentId: conversation.agentId,
      threadId: conversation.threadId,
      channel,
      direction: 'inbound',
      kind: 'inbound',
      providerMessageId: message.providerMessageId,
      fromNumber: message.from,
      toNumber: message.to,
      body,
      status: refusal ? 'undelivered' : 'received',
      error: refusal ?? null,
      inReplyTo: null,
      interactionId: null,
    });
    if (refusal) return this.metrics.channelMessage('inbound', 'refused');
    if (!created) {
      // A provider retry. Hand it over only if the first delivery recorded it but never got it to the pipeline.
      if (row.event_id || !(await this.messages.claimForRetry(row.id, HANDOFF_RETRY_AFTER_SECONDS))) return;
    }
    await this.handOver(row);
  }

  /**
   * The conversation the message continues, within one organization only. A platform default sender (or a number
   * several organizations connected) is shared: when the phone has open conversations with more than one
   * organization there, nothing tells which one the phone answers, so the message goes to none of them and is
   * kept in `channel_unrouted_messages` for operators.
   */
  private async route(channel: Channel, message: InboundChannelMessage, body: string): Promise<ChannelConversation | undefined> {
    const platformDefault = this.config.channels.defaultSenders[channel] === message.to;
    const conversations = (await this.conversations.channelConversations(channel, message.to, message.from, platformDefault)).map(
      toConversation,
    );
    const where = { channel, to: message.to, providerMessageId: message.providerMessageId };
    if (conversations.length === 0) {
      // Nobody started a conversation between these numbers: there is no agent to answer.
      this.logger.warn(where, 'inbound channel message matches no conversation; ignored');
      return undefined;
    }
    if (conversations.length === 1) return conversations[0];
    const organizationIds = conversations.map((c) => c.organizationId).sort();
    const detail =
      `The phone has open conversations with ${organizationIds.length} organizations on the shared sender ${message.to}; ` +
      'routed to none of them (a dedicated sender per organization avoids this)';
    await this.messages.recordUnrouted({
      id: newId(),
      channel,
      providerMessageId: message.providerMessageId,
      fromNumber: message.from,
      toNumber: message.to,
      body,
      reason: 'ambiguous_shared_sender',
      detail,
      organizationIds,
    });
    this.logger.warn(
      { ...where, reason: 'ambiguous_shared_sender', organizationIds },
      'inbound channel message routed to no organization; recorded in channel_unrouted_messages',
    );
    return undefined;
  }

  /** A delivery-status callback for an outbound message (already verified). */
  async status(channel: Channel, params: Record<string, unknown>): Promise<void> {
    const report = this.provider.parseStatus(params);
    await this.outbound.changeStatus(() =>
      this.messages.applyProviderStatus(channel, report.providerMessageId, report.status, report.error),
    );
    if (report.status === 'delivered') this.metrics.channelMessage('outbound', 'delivered');
  }

  /**
   * Hands a recorded inbound message to the events pipeline (the event continues the channel thread through
   * its external id). A transient failure leaves it for the sweeper; a permanent one (agent deleted or unpublished)
   * is recorded on the message.
   */
  private async handOver(row: InboundRow): Promise<void> {
    const [inbound, thread] = await Promise.all([this.messages.inboundBody(row.id), this.conversations.channelThread(row.thread_id)]);
    if (!inbound || !thread?.external_id) return;
    let eventId: string;
    try {
      eventId = await this.ingest.accept(row.organization_id, row.agent_id, {
        ...(inbound.body.trim() ? { text: inbound.body } : {}),
        agent_variables: { user_id: thread.user_id, channel: inbound.channel, phone_number: thread.phone_number },
        thread_id: thread.external_id,
      });
    } catch (error) {
      if (error instanceof AppError && error.status < 500) {
        await this.messages.markInboundUnhandled(row.id, `${error.code}: ${error.message}`);
        return;
      }
      this.logger.warn(
        { err: error, inboundId: row.id },
        'inbound channel message not handed to the events pipeline yet; the sweeper will retry',
      );
      return;
    }
    await this.messages.setEventId(row.id, eventId);
    this.metrics.channelMessage('inbound', 'accepted');
    // The event may have finished before its id was recorded here, unseen by the listener below: look once now.
    await this.answerInOrder(row.thread_id).catch((error: unknown) =>
      this.logger.warn({ err: error, inboundId: row.id }, 'could not answer the channel conversation now; the sweeper will'),
    );
  }

  /** A channel message's event finished (on this process): its conversation may have a reply to send. */
  @OnBusEvent('event.completed')
  @OnBusEvent('event.failed')
  async onEventDone(event: EventCompleted | EventFailed): Promise<void> {
    if (event.channel === null) return;
    const inbound = await this.messages.findInboundByEvent(event.eventId);
    if (inbound) await this.answerInOrder(inbound.thread_id);
  }

  /**
   * Answers the thread's inbound messages in the order they came in, as far as it can now: the earliest unanswered
   * one is answered once its event is done and no earlier reply is still queued for delivery; then the next. It
   * stops at a turn still running (its `event.*` announcement calls this again) or at a reply handed to the
   * provider (ChannelsProcessor.deliver calls this again once it left). Safe to run concurrently, here or on another
   * process: a message gets one reply (unique `in_reply_to`), and only the call that recorded it queues it.
   */
  async answerInOrder(threadId: string): Promise<void> {
    for (;;) {
      const inbound = await this.messages.nextToAnswer(threadId);
      if (!inbound?.event_id || inbound.earlier_reply_queued) return;
      const event = await this.events.status(inbound.organization_id, inbound.agent_id, inbound.event_id);
      if (event.status === 'failed') {
        await this.messages.markInboundUnhandled(inbound.id, `The agent's turn failed: ${event.error ?? 'unknown error'}`);
        continue;
      }
      if (event.status !== 'completed') return;
      const turn = await this.conversations.turnForEvent(inbound.event_id, inbound.organization_id);
      if (!turn) return;
      const replyId = await this.recordReply(inbound, turn);
      await this.messages.markInboundAnswered(inbound.id, turn.id);
      if (replyId) return this.outbound.enqueueQuietly(replyId);
    }
  }

  /** Records the reply to `inbound`; returns its id when it was recorded by this call and waits for delivery. */
  private async recordReply(
    inbound: InboundRow,
    turn: { id: string; reply_text: string; reply: { cards?: unknown[] } },
  ): Promise<string | undefined> {
    const body = replyBody(turn.reply_text, turn.reply.cards);
    if (!body) return undefined;
    const replyId = newId();
    const { status, error } = this.outbound.initialStatus();
    const recorded = await this.messages.recordReply({
      id: replyId,
      organizationId: inbound.organization_id,
      agentId: inbound.agent_id,
      threadId: inbound.thread_id,
      channel: inbound.channel,
      direction: 'outbound',
      kind: 'reply',
      providerMessageId: null,
      fromNumber: inbound.to_number,
      toNumber: inbound.from_number,
      body,
      status,
      error,
      inReplyTo: inbound.id,
      interactionId: turn.id,
    });
    return recorded && status === 'queued' ? replyId : undefined;
  }

  /**
   * Hands over inbound messages a crash or an unavailable pipeline left behind, and answers those whose
   * announcement was lost (the process that ran the event stopped before answering). A periodic task.
   */
  async sweep(): Promise<void> {
    try {
      for (const row of await this.messages.claimUnhanded(HANDOFF_RETRY_AFTER_SECONDS, 50)) await this.handOver(row);
      const threads = await this.messages.unansweredThreads(ANSWER_RETRY_AFTER_SECONDS, 50);
      for (const threadId of threads) await this.answerInOrder(threadId);
    } catch (error) {
      this.logger.warn({ err: error }, 'channel inbound sweep failed');
    }
  }
}

/**
 * Why the agent must not see this body, or undefined: longer than any other surface accepts. (NUL and lone
 * surrogates never get here: the HTTP edge refuses them in every form field with 422, as on every route.)
 */
function bodyRefusal(body: string): string | undefined {
  if (charCount(body) <= INPUT_LIMITS.messageMaxChars) return undefined;
  return `message_too_long: the message is longer than ${INPUT_LIMITS.messageMaxChars} characters; recorded cut to that length, not answered`;
}

/** The body as it can be recorded: at most messageMaxChars characters (only a refused body is longer). */
function storableExcerpt(body: string): string {
  return leadingChars(body, INPUT_LIMITS.messageMaxChars);
}

/** The reply as a text message: the agent's text, then up to three of its cards as "• title url" lines. */
export function replyBody(text: string, cards: unknown[] | undefined): string {
  const lines: string[] = [];
  for (const card of (cards ?? []).slice(0, MAX_CARD_LINES)) {
    const c = card as { title?: unknown; json_data?: { entity?: Record<string, unknown> } };
    const title = typeof c.title === 'string' ? c.title : undefined;
    const url = c.json_data?.entity?.url;
    if (title) lines.push(`• ${title}${typeof url === 'string' && url ? ` ${url}` : ''}`);
  }
  return [text.trim(), ...(lines.length ? [lines.join('\n')] : [])].filter(Boolean).join('\n\n');
}

function toConversation(thread: ChannelThread): ChannelConversation {
  return {
    threadId: thread.id,
    organizationId: thread.organization_id,
    agentId: thread.agent_id,
    userId: thread.user_id,
    externalId: thread.external_id,
    channel: thread.channel as Channel,
    phoneNumber: thread.phone_number,
    senderNumber: thread.sender_number,
  };
}
