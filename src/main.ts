/** HTTP entry: check PostgreSQL and Redis, migrate (under an advisory lock), build the app, listen, shut down cleanly on SIGTERM. */
import './config/env-file.js';
import './telemetry/setup.js';
import 'reflect-metadata';
import { symbols } from 'pino';
import { createApp } from './app.setup.js';
import { loadConfig } from './config/app-config.js';
import { InvalidEnvironmentError } from './config/env.schema.js';
import { createLogger } from './common/logging/logger.js';
import { migrate } from './database/data-source.js';
import { sizeDatabasePool } from './database/pool-sizing.js';
import { installShutdown } from './shutdown.js';
import { MetricsService } from './modules/metrics/metrics.service.js';
import { ReadinessService } from './modules/health/readiness.service.js';
import { startBanner } from './startup/banner.js';
import { checkDependencies, listenFailure, StartupError } from './startup/preflight.js';

// Exit codes (sysexits.h): 78 a bad environment, 69 a dependency or address that is not available.
try {
  const config = loadConfig();
  const logger = createLogger(config);
  if (config.ephemeralJwtSecret && config.env !== 'test') {
    logger.warn('JWT_SECRET is not set: tokens are signed with a random secret and stop working when this process restarts');
  }
  if (config.http.trustedProxies.kind === 'peer') {
    logger.warn(
      "TRUST_PROXY=true is deprecated: any peer that connects is believed about one X-Forwarded-For hop; set TRUST_PROXY to the load balancers' addresses or CIDRs",
    );
  }
  await checkDependencies(config);
  await sizeDatabasePool(config, logger);
  if (config.db.migrateOnStart) {
    const applied = await migrate(config);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  }
  const app = await createApp(config, logger);
  installShutdown(app, logger, config.shutdown);
  try {
    await app.listen({ port: config.http.port, host: config.http.host });
  } catch (error) {
    throw listenFailure(error, config.http.host, config.http.port) ?? error;
  }
  const { port } = app.getHttpServer().address() as { port: number };
  logger.info({ url: `http://${config.http.host}:${port}${config.http.basePath}` }, 'listening');
  const metricsUrl = await app.get(MetricsService).listen(app.get(ReadinessService));
  if (metricsUrl) logger.info({ url: metricsUrl }, 'metrics listening');
  // Through the log's own stream: pino writes asynchronously, and the banner must come below the boot logs.
  if (config.env !== 'production') {
    (logger as unknown as Record<symbol, { write(text: string): void }>)[symbols.streamSym]!.write(startBanner(config, port));
  }
} catch (error) {
  if (error instanceof InvalidEnvironmentError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  if (error instanceof StartupError) {
    process.stderr.write(`agent-service: ${error.message}\n`);
    process.exit(69);
  }
  throw error;
}
