import { Module } from '@nestjs/common';
import { IdempotencyCleaner } from './idempotency.cleaner.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyService } from './idempotency.service.js';

/**
 * Idempotency keys (docs/idempotency.md): `@Idempotent()` attaches IdempotencyInterceptor to the routes it marks
 * (only those: a global interceptor would put Nest's interceptor pipeline on every request, /health included); the
 * cleaner deletes expired keys. A module with `@Idempotent()` routes imports it, so the interceptor's dependencies
 * resolve in its controllers' module; controllers use only the decorators (idempotent.decorator.ts,
 * idempotency-context.ts).
 */
@Module({
  providers: [IdempotencyRepository, IdempotencyService, IdempotencyCleaner, IdempotencyInterceptor],
  exports: [IdempotencyService, IdempotencyInterceptor],
})
export class IdempotencyModule {}
