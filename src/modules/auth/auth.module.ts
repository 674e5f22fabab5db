import { Global, Module } from '@nestjs/common';
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

/** Global so every feature module can use `@Auth(...)` without importing it. */
@Global()
@Module({
  imports: [PassportModule, CredentialChangesModule],
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
  exports: [AuthService, TokenService, ApiKeysRepository, CredentialGuard, RateLimitGuard, CredentialChangesModule],
})
export class AuthModule {}
