import type { INestApplicationContext } from '@nestjs/common';
import type { Logger } from 'pino';
import { stopTracing } from './telemetry/setup.js';

/**
 * SIGTERM/SIGINT: stop accepting, let in-flight requests and jobs finish (Fastify waits for them; Bull and the
 * pools close in their shutdown hooks), then exit 0. A second signal, or 25 s without finishing, exits at once.
 */
export function installShutdown(app: INestApplicationContext, logger: Logger): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, 25_000);
    timer.unref();
    // Buffered spans are flushed after the app has closed (its last requests' spans included).
    app
      .close()
      .then(() => stopTracing?.())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
