import { BullModule, getQueueToken } from '@nestjs/bull';
import { Global, Module } from '@nestjs/common';
import type { Queue } from 'bull';
import { AppConfig } from '../config/app-config.js';
import { QueueName } from './job-map.js';
import { JobQueue, QUEUES } from './job-queue.js';

const names = Object.values(QueueName);
const queues = BullModule.registerQueue(...names.map((name) => ({ name })));
const queuesByName = {
  provide: QUEUES,
  inject: names.map((name) => getQueueToken(name)),
  useFactory: (...registered: Queue[]) => new Map(names.map((name, i) => [name, registered[i]!])),
};

/**
 * Bull on the configured Redis, every key under the configured prefix, every queue of the service registered once
 * here, and the one enqueuer (JobQueue). The jobs run in JobRunnerModule, which only the service and the worker load.
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
  providers: [queuesByName, JobQueue],
  exports: [queues, JobQueue],
})
export class QueueModule {}
