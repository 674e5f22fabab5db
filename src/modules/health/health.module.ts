import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { HealthRepository } from './health.repository.js';
import { ReadinessService } from './readiness.service.js';

/** Liveness and readiness; ReadinessService is published for the operations listener and the shutdown drain. */
@Module({ controllers: [HealthController], providers: [HealthRepository, ReadinessService], exports: [ReadinessService] })
export class HealthModule {}
