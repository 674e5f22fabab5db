import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { OutboundHttpClient } from './outbound-http.client.js';
import { configureOutboundPolicy } from './outbound-policy.js';

/** The SSRF-guarded HTTP client (docs/security.md), configured from OUTBOUND_ALLOWED_NETWORKS. */
@Global()
@Module({
  providers: [
    {
      provide: OutboundHttpClient,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new OutboundHttpClient(configureOutboundPolicy(config.outbound.allowedNetworks)),
    },
  ],
  exports: [OutboundHttpClient],
})
export class OutboundModule {}
