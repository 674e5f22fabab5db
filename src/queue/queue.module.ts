import { BullModule } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';

/** Bull on the configured Redis, every key under the configured prefix. Feature modules register their queues. */
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
  ],
  exports: [BullModule],
})
export class QueueModule {}
