import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { IdempotencyCleaner } from './idempotency.cleaner.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';

/**
 * Idempotency keys (docs/idempotency.md): the global IdempotencyInterceptor serves every route marked
 * `@Idempotent()`; the cleaner deletes expired keys. Controllers use only the decorators (idempotent.decorator.ts,
 * idempotency-context.ts), so no module imports this one but the application.
 */
@Module({
  providers: [
    IdempotencyRepository,
    IdempotencyService,
    IdempotencyCleaner,
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
})
export class IdempotencyModule {}
