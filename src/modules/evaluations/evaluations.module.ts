import { Module } from '@nestjs/common';
import { AgentRecordsModule } from '../agent-records/agent-records.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { RuntimeModule } from '../runtime/runtime.module.js';
import { VersionsModule } from '../versions/versions.module.js';
import { EvaluationsController } from './evaluations.controller.js';
import { EvaluationsRepository } from './evaluations.repository.js';
import { EvaluationsService } from './evaluations.service.js';
import { TestCasesController } from './test-cases.controller.js';
import { TestCasesRepository } from './test-cases.repository.js';
import { TestCasesService } from './test-cases.service.js';

/** Test cases, evaluation runs and the publish gate (docs/evaluations.md); runs are processed by EvaluationsWorkerModule. */
@Module({
  imports: [AuthModule, IdempotencyModule, AgentRecordsModule, ConversationsModule, RuntimeModule, VersionsModule],
  controllers: [TestCasesController, EvaluationsController],
  providers: [TestCasesService, TestCasesRepository, EvaluationsService, EvaluationsRepository],
  exports: [EvaluationsService],
})
export class EvaluationsModule {}
