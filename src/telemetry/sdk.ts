import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { AppConfig } from '../config/app-config.js';
import { setTracingEnabled } from './tracing.js';

/** Stops tracing: flushes what is buffered, unpatches the instrumented modules, unregisters the provider. */
export type StopTracing = () => Promise<void>;

/**
 * Registers the tracer provider (AsyncLocalStorage context, W3C trace-context propagation) and the maintained
 * instrumentations of HTTP (server spans), PostgreSQL (`pg`) and Redis (`ioredis`). The instrumentations patch a
 * module when it is loaded, so this runs before the app's modules load (src/telemetry/setup.ts).
 */
export function startTracing(options: { serviceName: string; exporter: SpanExporter; batch: boolean }): StopTracing {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    spanProcessors: [options.batch ? new BatchSpanProcessor(options.exporter) : new SimpleSpanProcessor(options.exporter)],
  });
  provider.register();
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [new HttpInstrumentation(), new PgInstrumentation(), new IORedisInstrumentation()],
  });
  setTracingEnabled(true);
  return async () => {
    setTracingEnabled(false);
    unregister();
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  };
}

/** Production tracing from the OTEL_* configuration: batched OTLP/HTTP export. */
export function startConfiguredTracing(tracing: AppConfig['tracing']): StopTracing {
  const exporter = new OTLPTraceExporter({ url: tracing.tracesUrl, headers: tracing.headers });
  return startTracing({ serviceName: tracing.serviceName, exporter, batch: true });
}

/**
 * Test hook: tracing into the given exporter (e.g. an InMemorySpanExporter), each span exported as it ends. Tests
 * create apps in-process after the environment was read, so they switch tracing on here instead of with OTEL_*.
 */
export function startTracingForTests(exporter: SpanExporter): StopTracing {
  return startTracing({ serviceName: 'agent-service-test', exporter, batch: false });
}
