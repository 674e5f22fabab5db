import { Global, Module } from '@nestjs/common';
import { MetricsService } from './metrics.service.js';

/** Prometheus metrics of this process: global, so that any service records through MetricsService. */
@Global()
@Module({ providers: [MetricsService], exports: [MetricsService] })
export class MetricsModule {}
