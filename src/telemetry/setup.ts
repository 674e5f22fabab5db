/**
 * Imported first by the entry points (src/main.ts, src/worker.ts): tracing, when the OTEL_* configuration asks for
 * it, must patch `http`, `pg` and `ioredis` before any module loads them. Off (the default), it registers nothing
 * and does not even load the SDK. An invalid environment is left to the entry point, which reports every bad key.
 */
import { createRequire } from 'node:module';
import { loadConfig } from '../config/app-config.js';
import { InvalidEnvironmentError } from '../config/env.schema.js';
import type { StopTracing } from './sdk.js';

function configuredTracing(): StopTracing | undefined {
  let tracing;
  try {
    tracing = loadConfig().tracing;
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) return undefined;
    throw error;
  }
  if (!tracing.enabled) return undefined;
  // Loaded only when on (the SDK is ≈ 15 MB of memory and 0.2 s of start-up), and synchronously: a dynamic import
  // would let the app's modules load (and `pg`, `ioredis` be required) before the instrumentations are registered.
  const { startConfiguredTracing } = createRequire(import.meta.url)('./sdk.js') as typeof import('./sdk.js');
  return startConfiguredTracing(tracing);
}

/** Flushes buffered spans and unregisters (undefined while tracing is off); for the shutdown path. */
export const stopTracing: StopTracing | undefined = configuredTracing();
