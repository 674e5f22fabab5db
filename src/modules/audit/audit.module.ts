import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { AuditController } from './audit.controller.js';
import { AuditEventsRepository } from './audit-events.repository.js';
import { AuditService } from './audit.service.js';

/** The audit log: an in-transaction subscriber of every management change (no module calls it), and its read routes. */
@Module({
  imports: [AuthModule],
  controllers: [AuditController],
  providers: [AuditService, AuditEventsRepository],
  exports: [AuditService],
})
export class AuditModule {}
