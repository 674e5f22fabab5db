import { Module } from '@nestjs/common';
import { EncryptionKeys } from '../../common/crypto/encryption-keys.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookSecrets, WebhookSecretsRewrap } from './webhook-secrets.js';

/**
 * The endpoints table and its sealed signing secrets, on their own so that the CLI (`secrets:rewrap`) can use them
 * without the queues; the outbox, management and delivery build on it through WebhookOutboxModule.
 */
@Module({
  providers: [EncryptionKeys, WebhookEndpointsRepository, WebhookSecrets, WebhookSecretsRewrap],
  exports: [WebhookEndpointsRepository, WebhookSecrets, WebhookSecretsRewrap],
})
export class WebhookSecretsModule {}
