import { Module } from '@nestjs/common';
import { MetricsService } from './metrics.service.js';

/** Prometheus metrics of this process: a module whose services record through MetricsService imports it. */
@Module({ providers: [MetricsService], exports: [MetricsService] })
export class MetricsModule {}
