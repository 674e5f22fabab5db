import { Global, Module } from '@nestjs/common';
import { AuditController } from './audit.controller.js';
import { AuditEventsRepository } from './audit-events.repository.js';
import { AuditService } from './audit.service.js';

/** The audit log. Global: every module that makes management writes records them through AuditService. */
@Global()
@Module({
  controllers: [AuditController],
  providers: [AuditService, AuditEventsRepository],
  exports: [AuditService],
})
export class AuditModule {}
