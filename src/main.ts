/** HTTP entry: migrate (under an advisory lock), build the app, listen, shut down cleanly on SIGTERM. */
import './telemetry/setup.js';
import 'reflect-metadata';
import { createApp } from './app.setup.js';
import { loadConfig } from './config/app-config.js';
import { InvalidEnvironmentError } from './config/env.schema.js';
import { createLogger } from './common/logging/logger.js';
import { migrate } from './database/data-source.js';
import { installShutdown } from './shutdown.js';
import { MetricsService } from './modules/metrics/metrics.service.js';

try {
  const config = loadConfig();
  const logger = createLogger(config);
  if (config.usesDevelopmentJwtSecret && config.env !== 'test') logger.warn('JWT_SECRET is not set: using the development secret');
  if (config.db.migrateOnStart) {
    const applied = await migrate(config);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  }
  const app = await createApp(config, logger);
  installShutdown(app, logger);
  await app.listen({ port: config.http.port, host: config.http.host });
  logger.info({ url: `http://${config.http.host}:${config.http.port}${config.http.basePath}` }, 'listening');
  const metricsUrl = await app.get(MetricsService).listen();
  if (metricsUrl) logger.info({ url: metricsUrl }, 'metrics listening');
} catch (error) {
  if (error instanceof InvalidEnvironmentError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  throw error;
}
