/** Queue processors only: the same modules as the API, no HTTP listener. Scale with `npm run worker`. */
import './config/env-file.js';
import './telemetry/setup.js';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';
import { loadConfig } from './config/app-config.js';
import { createLogger, PinoNestLogger } from './common/logging/logger.js';
import { migrate } from './database/data-source.js';
import { sizeDatabasePool } from './database/pool-sizing.js';
import { installShutdown } from './shutdown.js';
import { MetricsService } from './modules/metrics/metrics.service.js';
import { ReadinessService } from './modules/health/readiness.service.js';

const config = loadConfig({ WORKERS: 'on' });
const logger = createLogger(config);
await sizeDatabasePool(config, logger);
if (config.db.migrateOnStart) await migrate(config);
const app = await NestFactory.createApplicationContext(AppModule.register(config), { logger: new PinoNestLogger(logger) });
installShutdown(app, logger, { drainMs: 0, timeoutMs: config.shutdown.timeoutMs });
const metricsUrl = await app.get(MetricsService).listen(app.get(ReadinessService));
logger.info({ metricsUrl }, 'worker started');
