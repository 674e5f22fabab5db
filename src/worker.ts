/** Queue processors only: the same modules as the API, no HTTP listener. Scale with `npm run worker`. */
import './config/env-file.js';
import './telemetry/setup.js';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';
import { loadConfig } from './config/app-config.js';
import { createLogger, PinoNestLogger } from './common/logging/logger.js';
import { migrate } from './database/data-source.js';
import { installShutdown } from './shutdown.js';
import { MetricsService } from './modules/metrics/metrics.service.js';

const config = loadConfig({ WORKERS: 'on' });
const logger = createLogger(config);
if (config.db.migrateOnStart) await migrate(config);
const app = await NestFactory.createApplicationContext(AppModule.register(config), { logger: new PinoNestLogger(logger) });
installShutdown(app, logger);
const metricsUrl = await app.get(MetricsService).listen();
logger.info({ metricsUrl }, 'worker started');
