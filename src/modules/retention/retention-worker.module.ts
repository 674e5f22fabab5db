import { Module } from '@nestjs/common';
import { RetentionModule } from './retention.module.js';
import { RetentionProcessor } from './retention.processor.js';

/** The scheduled thread retention job: imported where queue processors run (WORKERS=on, the default, and `npm run worker`). */
@Module({ imports: [RetentionModule], providers: [RetentionProcessor] })
export class RetentionWorkerModule {}
