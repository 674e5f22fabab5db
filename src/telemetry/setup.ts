/**
 * Imported first by the entry points (src/main.ts, src/worker.ts): tracing, when the OTEL_* configuration asks for
 * it, must patch `http`, `pg` and `ioredis` before any module loads them. Off (the default), it registers nothing.
 * An invalid environment is left to the entry point, which reports every bad key.
 */
import { loadConfig } from '../config/app-config.js';
import { InvalidEnvironmentError } from '../config/env.schema.js';
import { startConfiguredTracing, type StopTracing } from './sdk.js';

function configuredTracing(): StopTracing | undefined {
  let tracing;
  try {
    tracing = loadConfig().tracing;
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) return undefined;
    throw error;
  }
  return tracing.enabled ? startConfiguredTracing(tracing) : undefined;
}

/** Flushes buffered spans on shutdown (undefined while tracing is off). */
export const stopTracing: StopTracing | undefined = configuredTracing();
