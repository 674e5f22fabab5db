import { Body, Get, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { MessagingController } from '../auth/decorators/surface.decorators.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { CurrentPrincipal } from '../auth/decorators/auth.decorator.js';
import { actingAgentId, type Principal } from '../auth/principal.js';
import { ChannelPipe } from './channel.pipe.js';
import { ChannelThreadsService } from './channel-threads.service.js';
import { CHANNELS, type Channel } from './channels.constants.js';
import { ChannelThreadParams, ChannelThreadResponseDto, StartChannelThreadDto } from './dto/channel-thread.dto.js';

@MessagingController('Channels')
export class ChannelThreadsController {
  constructor(private readonly threads: ChannelThreadsService) {}

  @Post('channels/:channel/threads')
  @ApiOperation({
    summary: 'Start a channel conversation (WhatsApp or SMS)',
    description:
      "Creates a thread on the channel and sends the live version's welcome message to `phone_number` from the given sender " +
      '(or the platform default sender). Replies from the phone continue the thread. `from` is present only when `sender_id` was given.',
  })
  @ApiParam({ name: 'channel', enum: CHANNELS, description: 'whatsapp or sms; unknown channels answer 404 not_found' })
  @ApiExampleBody(StartChannelThreadDto, {
    sms: {
      summary: 'From the platform default sender',
      value: { user_id: 'user-42', phone_number: '+15550123456', agent_display_name: 'Trail Shop' },
    },
  })
  @ApiCreatedResponse({ type: ChannelThreadResponseDto })
  @ApiErrors(400, 403, 404, 413, 415, 422)
  start(
    @Param('channel', ChannelPipe) channel: Channel,
    @CurrentPrincipal() who: Principal,
    @Body() body: StartChannelThreadDto,
  ): Promise<ChannelThreadResponseDto> {
    return this.threads.start({ organizationId: who.organizationId, agentId: actingAgentId(who) }, channel, body);
  }

  @Get('channels/:channel/threads/:threadId')
  @ApiOperation({
    summary: 'A channel conversation started by this agent',
    description: 'With the current delivery status of its opening message (queued, sent, delivered, undelivered).',
  })
  @ApiParam({ name: 'channel', enum: CHANNELS, description: 'The channel the conversation was started on' })
  @ApiOkResponse({ type: ChannelThreadResponseDto })
  @ApiErrors(400, 403, 404, 422)
  get(
    @Param('channel', ChannelPipe) channel: Channel,
    @Param() { threadId }: ChannelThreadParams,
    @CurrentPrincipal() who: Principal,
  ): Promise<ChannelThreadResponseDto> {
    return this.threads.get({ organizationId: who.organizationId, agentId: actingAgentId(who) }, channel, threadId);
  }
}
