import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { AppConfig } from '../config/app-config.js';

const CONNECT_TIMEOUT_MS = 5000;

/** A start-up failure the operator can fix: printed as one line, without a stack trace. */
export class StartupError extends Error {}

/** `host:port` of a URL, never its credentials. */
function addressOf(url: string, defaultPort: number): string {
  try {
    const { hostname, port } = new URL(url);
    return `${hostname}:${port || defaultPort}`;
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * The listen address, one connection to PostgreSQL and one to Redis, before anything else starts: what is taken or
 * unreachable fails the start at once with the variable to fix and the address tried, instead of a driver's stack
 * trace or endless retries.
 */
export async function checkDependencies(config: AppConfig): Promise<void> {
  await Promise.all([checkPort(config.http.host, config.http.port), checkPostgres(config.db.url), checkRedis(config.redis.url)]);
}

async function checkPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await client.connect();
  } catch (error) {
    throw new StartupError(`cannot reach PostgreSQL at ${addressOf(url, 5432)} (DATABASE_URL): ${reason(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkRedis(url: string): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  // The cause comes as an 'error' event; connect() itself rejects with a bare "Connection is closed".
  let cause: unknown;
  redis.on('error', (error) => (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new StartupError(`cannot reach Redis at ${addressOf(url, 6379)} (REDIS_URL): ${reason(cause ?? error)}`);
  } finally {
    redis.disconnect();
  }
}

function reason(error: unknown): string {
  const e = error as { code?: string; message?: string; errors?: { message?: string }[] };
  // A host with several addresses (localhost: ::1 and 127.0.0.1) fails with an AggregateError and no message.
  const message = e.message || e.errors?.map((x) => x.message).join('; ') || String(error);
  return e.code && !message.includes(e.code) ? `${e.code} ${message}` : message;
}

/**
 * Binds and releases the HTTP address before the app is built, so a taken port is one clear line rather than a
 * failure after every module has started (listen() can still lose a race; main reports that the same way).
 */
export async function checkPort(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenFailure(error, host, port) ?? error));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve()));
  });
}

/** A failure of the HTTP listener the operator can fix (the metrics listener handles its own). */
export function listenFailure(error: unknown, host: string, port: number): StartupError | undefined {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') return new StartupError(`port ${port} is in use; set PORT to another port, or stop what listens there`);
  if (code === 'EACCES') return new StartupError(`not allowed to listen on port ${port}; set PORT to a port above 1023`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new StartupError(`cannot listen on ${host}: not an address of this machine; set HOST`);
  }
  return undefined;
}
