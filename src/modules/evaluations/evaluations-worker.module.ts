import { Module } from '@nestjs/common';
import { EvaluationsModule } from './evaluations.module.js';
import { EvaluationsProcessor } from './evaluations.processor.js';

/** Evaluation runs: imported where queue processors run (WORKERS=on, the default, and `npm run worker`). */
@Module({ imports: [EvaluationsModule], providers: [EvaluationsProcessor] })
export class EvaluationsWorkerModule {}
