import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { QueueName } from './queue.constants.js';

const queues = BullModule.registerQueue(...Object.values(QueueName).map((name) => ({ name })));

/**
 * Bull on the configured Redis, every key under the configured prefix, and every queue of the service registered
 * once here: whoever enqueues (feature services), processes (worker modules) or counts (metrics) injects the same
 * `Queue` with `@InjectQueue(QueueName.X)`.
 */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        redis: config.redis.url,
        prefix: `${config.redis.keyPrefix}:bull`,
      }),
    }),
    queues,
  ],
  exports: [queues],
})
export class QueueModule {}
