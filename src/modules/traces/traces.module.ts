import { Module } from '@nestjs/common';
import { ThreadsModule } from '../threads/threads.module.js';
import { TracesController } from './traces.controller.js';
import { TracesRepository } from './traces.repository.js';
import { TracesService } from './traces.service.js';

@Module({
  imports: [ThreadsModule],
  controllers: [TracesController],
  providers: [TracesService, TracesRepository],
})
export class TracesModule {}
