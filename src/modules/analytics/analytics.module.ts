import { Module } from '@nestjs/common';
import { AgentRecordsModule } from '../agent-records/agent-records.module.js';
import { AuthModule } from '../auth/auth.module.js';
import { AnalyticsController } from './analytics.controller.js';
import { AnalyticsRepository } from './analytics.repository.js';
import { AnalyticsService } from './analytics.service.js';

/** Outcome analytics over the daily roll-ups (docs/evaluations.md "Analytics"). */
@Module({
  imports: [AuthModule, AgentRecordsModule],
  controllers: [AnalyticsController],
  providers: [AnalyticsService, AnalyticsRepository],
})
export class AnalyticsModule {}
