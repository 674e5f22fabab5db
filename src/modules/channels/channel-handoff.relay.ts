import { Injectable } from '@nestjs/common';
import type { HandoffThread, ThreadControlChanged, ThreadMessageCreated } from '../../common/bus/event-map.js';
import { OnBusEvent } from '../../common/bus/on-bus-event.decorator.js';
import { ConversationsService } from '../conversations/conversations.service.js';
import { ChannelMessagesRepository } from './channel-messages.repository.js';
import { ChannelOutboundService } from './channel-outbound.service.js';
import type { Channel } from './channels.constants.js';

/**
 * Human handoff on WhatsApp and SMS threads (docs/handoff.md): an operator's message, and the text of a control note
 * (the bundle's handoff or timeout message), leave for the phone as outbound `operator` messages — recorded once per
 * thread item (its id is the message's), then delivered like any reply. Runs once the change has committed, in the
 * process that made it.
 */
@Injectable()
export class ChannelHandoffRelay {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: ChannelMessagesRepository,
    private readonly outbound: ChannelOutboundService,
  ) {}

  @OnBusEvent('thread.message_created')
  async operatorMessage(created: ThreadMessageCreated): Promise<void> {
    if (created.message.kind === 'operator' && created.message.text) await this.send(created, created.message.id, created.message.text);
  }

  @OnBusEvent('thread.control_changed')
  async controlNote(change: ThreadControlChanged): Promise<void> {
    if (change.note.text) await this.send(change, change.note.id, change.note.text);
  }

  private async send(thread: HandoffThread, id: string, body: string): Promise<void> {
    if (!thread.channel) return;
    const conversation = await this.conversations.channelThread(thread.threadId);
    if (!conversation) return;
    const { status, error } = this.outbound.initialStatus();
    const recorded = await this.messages.recordOperatorMessage({
      id,
      organizationId: thread.organizationId,
      agentId: thread.agentId,
      threadId: thread.threadId,
      channel: conversation.channel as Channel,
      direction: 'outbound',
      kind: 'operator',
      providerMessageId: null,
      fromNumber: conversation.sender_number,
      toNumber: conversation.phone_number,
      body,
      status,
      error,
      inReplyTo: null,
      interactionId: null,
    });
    if (recorded && status === 'queued') await this.outbound.enqueueQuietly(id);
  }
}
