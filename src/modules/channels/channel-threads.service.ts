import { Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../../common/errors/app-error.js';
import { newId } from '../../common/ids/new-id.js';
import { AppConfig } from '../../config/app-config.js';
import { UnitOfWork } from '../../database/unit-of-work.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import { LiveAgentsService } from '../messaging/live-agents.service.js';
import { MessagingService } from '../messaging/messaging.service.js';
import type { TurnCaller } from '../messaging/turn.types.js';
import { ChannelMessagesRepository } from './channel-messages.repository.js';
import { ChannelOutboundService } from './channel-outbound.service.js';
import { CHANNEL_LABEL, channelExternalId, type Channel } from './channels.constants.js';
import type { ChannelThreadResponseDto, StartChannelThreadDto } from './dto/channel-thread.dto.js';
import { SendersService } from './senders.service.js';

/**
 * Starting a channel conversation: an ordinary thread (live version, user id) that also records its channel,
 * recipient and sender, opened by the agent's welcome message sent to the recipient.
 */
@Injectable()
export class ChannelThreadsService {
  constructor(
    private readonly live: LiveAgentsService,
    private readonly messaging: MessagingService,
    private readonly senders: SendersService,
    private readonly messages: ChannelMessagesRepository,
    private readonly conversations: ConversationsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly outbound: ChannelOutboundService,
    private readonly config: AppConfig,
  ) {}

  async start(caller: TurnCaller, channel: Channel, dto: StartChannelThreadDto): Promise<ChannelThreadResponseDto> {
    // The arm of the traffic split this end user's new thread gets (the live version without a split).
    const agent = await this.live.route(caller.organizationId, caller.agentId, { userId: dto.user_id, versionId: null, revisionId: null });
    const sender = await this.resolveSender(caller.organizationId, channel, dto.sender_id);
    const { welcome_message: welcome } = await this.messaging.welcome(caller, dto.user_id);
    const displayName = dto.agent_display_name?.trim() || null;
    const threadId = newId();
    const openingId = newId();
    const { status, error } = this.outbound.initialStatus();
    // The thread and its opening message commit together.
    await this.unitOfWork.run(async () => {
      await this.conversations.createThread({
        id: threadId,
        organizationId: agent.organizationId,
        projectId: agent.projectId,
        agentId: agent.agentId,
        userId: dto.user_id,
        externalId: channelExternalId(channel, threadId),
        title: `${CHANNEL_LABEL[channel]} conversation with ${dto.phone_number}`,
        runtime: agent.runtime,
        versionTag: agent.versionTag,
        channel: {
          channel,
          phoneNumber: dto.phone_number,
          senderId: sender.id,
          senderNumber: sender.number,
          agentDisplayName: displayName,
        },
      });
      await this.messages.recordOpening({
        id: openingId,
        organizationId: agent.organizationId,
        agentId: agent.agentId,
        threadId,
        channel,
        direction: 'outbound',
        kind: 'opening',
        providerMessageId: null,
        fromNumber: sender.number,
        toNumber: dto.phone_number,
        body: displayName ? `${displayName}: ${welcome}` : welcome,
        status,
        error,
        inReplyTo: null,
        interactionId: null,
      });
    });
    if (status === 'queued') await this.outbound.enqueueQuietly(openingId);
    return {
      thread_id: threadId,
      channel,
      phone_number: dto.phone_number,
      user_id: dto.user_id,
      status,
      ...(sender.id ? { from: sender.number } : {}),
    };
  }

  /** The channel thread as started, with the current status of its opening message. */
  async get(caller: TurnCaller, channel: Channel, threadId: string): Promise<ChannelThreadResponseDto> {
    const thread = await this.conversations.channelThread(threadId, {
      organizationId: caller.organizationId,
      agentId: caller.agentId,
      channel,
    });
    if (!thread) throw new NotFoundError('Thread');
    const status = await this.messages.openingStatus(thread.id);
    if (!status) throw new NotFoundError('Thread');
    return {
      thread_id: thread.id,
      channel,
      phone_number: thread.phone_number,
      user_id: thread.user_id,
      status,
      ...(thread.sender_id ? { from: thread.sender_number } : {}),
    };
  }

  /** The given sender of the organization (404 otherwise), or the platform default sender of the channel. */
  private async resolveSender(
    organizationId: string,
    channel: Channel,
    senderId: string | undefined,
  ): Promise<{ id: string | null; number: string }> {
    if (senderId) {
      const sender = await this.senders.getVisible(organizationId, senderId);
      if (sender.channel !== channel) {
        throw ValidationError.field(
          'sender_id',
          `sender_id names a ${CHANNEL_LABEL[sender.channel]} sender; this conversation is on ${CHANNEL_LABEL[channel]}`,
        );
      }
      return { id: sender.id, number: sender.phoneNumber };
    }
    const fallback = this.config.channels.defaultSenders[channel];
    if (!fallback) {
      throw ValidationError.field(
        'sender_id',
        `No platform default ${CHANNEL_LABEL[channel]} sender is configured; send sender_id (a connected sender)`,
      );
    }
    return { id: null, number: fallback };
  }
}
