import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config.js';
import { ChannelPipe } from './channel.pipe.js';
import { ChannelInboundService } from './channel-inbound.service.js';

const channelPipe = new ChannelPipe();

/**
 * Authenticates a provider webhook call by its `X-Twilio-Signature` over CHANNEL_PUBLIC_BASE_URL + the path and the
 * form parameters (providers/twilio-signature.ts): 401 without a signature, 403 with a wrong one. An unknown channel
 * is 404 first, signed or not, as the route's ChannelPipe answers it.
 */
@Injectable()
export class TwilioSignatureGuard implements CanActivate {
  constructor(
    private readonly inbound: ChannelInboundService,
    private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest<{ Params: { channel: string } }>>();
    channelPipe.transform(request.params.channel);
    const signature = request.headers['x-twilio-signature'];
    const form = (request.body ?? {}) as Record<string, unknown>;
    this.inbound.verify(this.publicUrl(request), form, typeof signature === 'string' ? signature : undefined);
    return true;
  }

  /** The URL the provider called and signed: the configured public base (proxies change the host), then the path as received. */
  private publicUrl(request: FastifyRequest): string {
    const base = this.config.channels.publicBaseUrl ?? `${request.protocol}://${request.host}`;
    return `${base}${request.originalUrl}`;
  }
}
