import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { EventsModule } from '../events/events.module.js';
import { ProjectsModule } from '../projects/projects.module.js';
import { ThreadDeletionService } from './thread-deletion.service.js';

/**
 * Thread retention and erasure (docs/governance.md): deleting threads with everything tied to them. The routes are
 * the threads module's (`DELETE /management/v1/threads…`); the scheduled job is in RetentionWorkerModule.
 */
@Module({
  imports: [ConversationsModule, EventsModule, ProjectsModule],
  providers: [ThreadDeletionService],
  exports: [ThreadDeletionService],
})
export class RetentionModule {}
