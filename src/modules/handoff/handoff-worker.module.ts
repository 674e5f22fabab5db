import { Module } from '@nestjs/common';
import { HandoffModule } from './handoff.module.js';
import { HandoffTimeoutProcessor } from './handoff-timeout.processor.js';

/** Handoff request timeouts: imported where queue processors run (WORKERS=on, the default, and `npm run worker`). */
@Module({ imports: [HandoffModule], providers: [HandoffTimeoutProcessor] })
export class HandoffWorkerModule {}
