import type { INestApplicationContext } from '@nestjs/common';
import type { Logger } from 'pino';
import { ReadinessService } from './modules/health/readiness.service.js';
import { stopTracing } from './telemetry/setup.js';

/**
 * SIGTERM (docs/operations.md, "Shutdown and drain"): readiness answers 503 at once while requests are still served for
 * `drainMs` (SHUTDOWN_DRAIN_MS on the API; 0 for the worker, which nothing routes to), so that balancers and
 * Kubernetes stop sending new requests first; then the listener stops accepting, in-flight requests and jobs finish
 * (Fastify waits for them; open SSE streams end at a resumable point while their turns are saved; Bull waits for
 * active jobs and the pools close in their shutdown hooks), and the process exits 0. SIGINT (Ctrl-C) skips the drain.
 * A second signal, or `timeoutMs` without finishing, exits at once (1); a job cut off then is taken over after its
 * lease (docs/events.md).
 */
export function installShutdown(app: INestApplicationContext, logger: Logger, options: { drainMs: number; timeoutMs: number }): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    const drainMs = signal === 'SIGINT' ? 0 : options.drainMs;
    logger.info({ signal, drainMs }, 'shutting down');
    app.get(ReadinessService).startDraining();
    const timer = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, drainMs + options.timeoutMs);
    timer.unref();
    // Buffered spans are flushed after the app has closed (its last requests' spans included).
    new Promise((resolve) => setTimeout(resolve, drainMs))
      .then(() => app.close())
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
