import { type LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';
import type { AppConfig } from '../../config/app-config.js';
import { traceLogFields, tracingEnabled } from '../../telemetry/tracing.js';

/** Paths never written to a log line, wherever they appear. */
const REDACTED = [
  'req.headers.authorization',
  'req.headers["x-organization-api-key"]',
  'req.headers["x-agent-api-key"]',
  'headers.authorization',
  'headers["x-organization-api-key"]',
  'headers["x-agent-api-key"]',
  '*.password',
  '*.publishable_key',
  '*.api_key',
  '*.access_token',
];

/** Structured JSON logs (pino) to stdout. Create it after tracing is set up (src/telemetry/setup.ts). */
export function createLogger(config: AppConfig): Logger {
  return pino({
    level: config.logLevel,
    // Which process wrote the line: several replicas and workers usually write to one log store.
    base: { service: 'agent-service', instance: config.identity.instance, host: config.identity.host, pid: config.identity.pid },
    redact: { paths: REDACTED, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Trace and span ids on each line while tracing is on (src/telemetry); no mixin at all while it is off.
    mixin: tracingEnabled() ? traceLogFields : undefined,
  });
}

/** Nest's one-line-per-module and per-route boot messages: at debug, so a start at info stays a few lines. */
const BOOT_DETAIL_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'WebSocketsController']);

/**
 * Nest's own log calls (bootstrap, module errors, `new Logger(ctx)` in our code) go to the same pino logger.
 * Nest passes `(message, ...params, context)`: an object message keeps its fields, a string param is the text.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && BOOT_DETAIL_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, params: unknown[]): void {
    const strings = params.filter((p): p is string => typeof p === 'string');
    const context = strings.length > 0 ? strings[strings.length - 1] : undefined;
    const text = strings.length > 1 ? strings.slice(0, -1).join(' ') : undefined;
    if (message !== null && typeof message === 'object') this.logger[level]({ context, ...(message as object) }, text);
    else this.logger[level]({ context }, String(message));
  }
}
