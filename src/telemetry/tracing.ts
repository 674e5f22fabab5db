import { context, propagation, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';

/**
 * The spans the service creates itself (docs/performance.md, "Tracing"). Everything here depends on the API only:
 * while tracing is off (the default) no provider is registered and every helper runs the work as is, without
 * creating a span, a context or a closure of its own — the cost is one boolean test.
 */
let enabled = false;
const tracer = trace.getTracer('agent-service');

/** Called by the SDK setup (src/telemetry/sdk.ts) once a provider is registered, and again when it is removed. */
export function setTracingEnabled(on: boolean): void {
  enabled = on;
}

export function tracingEnabled(): boolean {
  return enabled;
}

/**
 * Runs `work` in a child span of the active one. A promise ends the span when it settles; a throw or a rejection
 * marks the span as an error and passes on unchanged.
 */
export function withSpan<T>(name: string, work: () => T, attributes?: Attributes): T {
  if (!enabled) return work();
  return tracer.startActiveSpan(name, { attributes }, (span) => {
    let result: T;
    try {
      result = work();
    } catch (error) {
      fail(span, error);
      span.end();
      throw error;
    }
    if (result instanceof Promise) {
      return result.then(
        (value) => {
          span.end();
          return value;
        },
        (error: unknown) => {
          fail(span, error);
          span.end();
          throw error;
        },
      ) as T;
    }
    span.end();
    return result;
  });
}

/**
 * An async iterable in a span that lasts from the first read to the last (or an error, or an early return); the
 * producer runs with the span active, so its own spans are children.
 */
export function withStreamSpan<T>(name: string, produce: () => AsyncIterable<T>, attributes?: Attributes): AsyncIterable<T> {
  if (!enabled) return produce();
  return traced(name, produce, attributes);
}

async function* traced<T>(name: string, produce: () => AsyncIterable<T>, attributes?: Attributes): AsyncIterable<T> {
  const span = tracer.startSpan(name, { attributes });
  const active = trace.setSpan(context.active(), span);
  const iterator = context.with(active, () => produce()[Symbol.asyncIterator]());
  try {
    for (;;) {
      const step = await context.with(active, () => iterator.next());
      if (step.done) return;
      yield step.value;
    }
  } catch (error) {
    fail(span, error);
    throw error;
  } finally {
    await iterator.return?.();
    span.end();
  }
}

function fail(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** The active context as W3C `traceparent`/`tracestate` entries, to carry in a job; undefined while tracing is off. */
export function traceCarrier(): Record<string, string> | undefined {
  if (!enabled) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/** Runs `work` in the context a job carried (its span becomes the parent of the spans `work` creates). */
export function withCarriedContext<T>(carrier: Record<string, string> | undefined, work: () => T): T {
  if (!enabled || !carrier) return work();
  const carried: Context = propagation.extract(context.active(), carrier);
  return context.with(carried, work);
}

/**
 * Log correlation (a pino mixin, installed only while tracing is on): the active span's ids on every log line
 * written inside it. Pino merges into the object returned, so each call returns a new one.
 */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
