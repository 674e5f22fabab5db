import { Module } from '@nestjs/common';
import { ThreadsController } from './threads.controller.js';
import { ThreadsRepository } from './threads.repository.js';
import { ThreadsService } from './threads.service.js';

@Module({
  controllers: [ThreadsController],
  providers: [ThreadsService, ThreadsRepository],
  exports: [ThreadsService],
})
export class ThreadsModule {}
