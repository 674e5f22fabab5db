import { Body, Controller, HttpCode, Param, Post, Res, UseGuards } from '@nestjs/common';
import { ApiConsumes, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
import { Public } from '../auth/decorators/auth.decorator.js';
import { ChannelPipe } from './channel.pipe.js';
import { ChannelInboundService } from './channel-inbound.service.js';
import { CHANNELS, type Channel } from './channels.constants.js';
import { InboundChannelMessageDto, ProviderStatusCallbackDto } from './dto/channel-thread.dto.js';
import { TwilioSignatureGuard } from './twilio-signature.guard.js';

/** What the provider is answered: an empty TwiML document (no message sent from the webhook itself). */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
const SIGNATURE_HEADER = {
  name: 'X-Twilio-Signature',
  required: true,
  description: 'base64 HMAC-SHA1 of the public URL + sorted parameters, keyed by the provider auth token',
  // 28 characters; anything else cannot match and is refused (403).
  schema: { type: 'string', maxLength: 28 },
};
const TWIML_RESPONSE = {
  description: 'Empty TwiML: the reply is sent later through the Messages API',
  content: { 'text/xml': { schema: { type: 'string', example: EMPTY_TWIML } } },
};

/**
 * Webhooks the channel provider calls (no API credential: each call is authenticated by the provider's
 * `X-Twilio-Signature`, see TwilioSignatureGuard).
 */
@ApiTags('Channels')
@Controller('messaging/v1')
@Public()
@UseGuards(TwilioSignatureGuard)
@ApiErrors(500)
export class ChannelWebhooksController {
  constructor(private readonly inbound: ChannelInboundService) {}

  @Post('channels/:channel/inbound')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Provider webhook: a message from the phone (Twilio-compatible, form-encoded, signed)',
    description:
      'Recorded once per MessageSid, then answered by the agent through the events pipeline; the reply is delivered to the phone through the Messages API.',
  })
  @ApiParam({ name: 'channel', enum: CHANNELS, description: 'The channel of the webhook URL configured at the provider' })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiExampleBody(InboundChannelMessageDto, {
    sms: {
      summary: 'An SMS reply from the phone',
      value: {
        MessageSid: 'SM0123456789abcdef0123456789abcdef',
        From: '+15550123456',
        To: '+15550100001',
        Body: 'Do you have trail shoes?',
      },
    },
  })
  @ApiHeader(SIGNATURE_HEADER)
  @ApiOkResponse(TWIML_RESPONSE)
  @ApiErrors(401, 403, 404, 413, 422)
  async receive(
    @Param('channel', ChannelPipe) channel: Channel,
    @Body() params: Record<string, unknown> | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    await this.inbound.receive(channel, params ?? {});
    return twiml(reply);
  }

  @Post('channels/:channel/status')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Provider webhook: delivery status of an outbound message',
    description: 'Updates the status of one of our messages (sent, delivered, undelivered, failed); unknown MessageSids are ignored.',
  })
  @ApiParam({ name: 'channel', enum: CHANNELS, description: 'The channel of the webhook URL configured at the provider' })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiExampleBody(ProviderStatusCallbackDto, {
    delivered: { summary: 'Delivered', value: { MessageSid: 'SM0123456789abcdef0123456789abcdef', MessageStatus: 'delivered' } },
    failed: {
      summary: 'Failed',
      value: { MessageSid: 'SM0123456789abcdef0123456789abcdef', MessageStatus: 'undelivered', ErrorCode: '30003' },
    },
  })
  @ApiHeader(SIGNATURE_HEADER)
  @ApiOkResponse(TWIML_RESPONSE)
  @ApiErrors(401, 403, 404, 413, 422)
  async status(
    @Param('channel', ChannelPipe) channel: Channel,
    @Body() params: Record<string, unknown> | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    await this.inbound.status(channel, params ?? {});
    return twiml(reply);
  }
}

function twiml(reply: FastifyReply): string {
  void reply.type('text/xml; charset=utf-8');
  return EMPTY_TWIML;
}
