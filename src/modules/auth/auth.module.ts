import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module.js';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { AuthService } from './auth.service.js';
import { CredentialChangesListener } from './credential-changes.listener.js';
import { CredentialChangesModule } from './credential-changes.module.js';
import { CredentialGuard } from './guards/credential.guard.js';
import { LoginAttempts } from './login-attempts.js';
import { RouteAccessGuard } from './guards/route-access.guard.js';
import { AgentApiKeyStrategy } from './strategies/agent-api-key.strategy.js';
import { BearerTokenStrategy, MessagingTokenStrategy } from './strategies/bearer-token.strategy.js';
import { OrgApiKeyStrategy } from './strategies/org-api-key.strategy.js';
import { TokenController } from './token.controller.js';
import { TokenService } from './token.service.js';

/** Credentials and their guards: a module whose routes use `@Auth(...)` (or the surface decorators) imports it. */
@Module({
  imports: [MetricsModule, PassportModule, CredentialChangesModule],
  controllers: [TokenController],
  providers: [
    AuthService,
    TokenService,
    ApiKeysRepository,
    CredentialChangesListener,
    LoginAttempts,
    BearerTokenStrategy,
    MessagingTokenStrategy,
    OrgApiKeyStrategy,
    AgentApiKeyStrategy,
    CredentialGuard,
    RateLimitGuard,
    { provide: APP_GUARD, useClass: RouteAccessGuard },
  ],
  // MetricsModule too: the guards are instantiated in the module of each controller that uses them.
  exports: [AuthService, TokenService, ApiKeysRepository, CredentialGuard, RateLimitGuard, CredentialChangesModule, MetricsModule],
})
export class AuthModule {}
