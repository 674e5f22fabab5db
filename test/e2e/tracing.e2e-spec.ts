import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace, type ProxyTracerProvider } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { loadConfig } from '../../src/config/app-config.js';
import { startTracingForTests, type StopTracing } from '../../src/telemetry/sdk.js';
import { traceLogFields, tracingEnabled, withSpan } from '../../src/telemetry/tracing.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, shopBundle } from '../support/agents.js';
import { startFakeOpenAI, type FakeServer } from '../support/fake-openai-server.js';
import { startServiceProcess } from '../support/service-process.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';

const SEND = '/messaging/v1/messages';
const EVENTS = '/messaging/v1/events';
const V1_STEPS = ['engine.guardrails', 'engine.intent', 'engine.tools', 'engine.rules', 'engine.compose'];

/** Polls `probe` until it returns a value (not undefined), at most `timeoutMs`; never a fixed sleep. */
function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** The spans whose parent is `parent`. */
function childrenOf(spans: ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((s) => parentOf(s) === parent.spanContext().spanId);
}

interface OtlpSpan {
  scope: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

/** SPAN_KIND_SERVER in OTLP's JSON encoding. */
const OTLP_SERVER_KIND = 2;

/** The spans of an OTLP/HTTP JSON export request (ids are hex strings in this encoding). */
function otlpSpans(body: any): OtlpSpan[] {
  const out: OtlpSpan[] = [];
  for (const resource of body.resourceSpans ?? []) {
    for (const scoped of resource.scopeSpans ?? []) {
      for (const span of scoped.spans ?? []) {
        out.push({
          scope: scoped.scope?.name,
          name: span.name,
          kind: span.kind,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
        });
      }
    }
  }
  return out;
}

function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function providerDelegate(): unknown {
  return (trace.getTracerProvider() as ProxyTracerProvider).getDelegate();
}

describe('OpenTelemetry tracing', () => {
  it('is off by default: the setup registers no provider, and spans through the API record nothing', async () => {
    expect(loadConfig().tracing.enabled).toBe(false);
    const { stopTracing } = await import('../../src/telemetry/setup.js');
    expect(stopTracing).toBeUndefined();
    expect(tracingEnabled()).toBe(false);
    expect(providerDelegate()?.constructor.name).toBe('NoopTracerProvider');
    expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);
    expect(withSpan('engine.intent', () => trace.getActiveSpan())).toBeUndefined();
  });

  it('is on with the standard OTEL_* variables; OTEL_SDK_DISABLED wins', () => {
    expect(loadConfig({ OTEL_TRACES_EXPORTER: 'otlp' }).tracing).toMatchObject({
      enabled: true,
      serviceName: 'agent-service',
      tracesUrl: undefined,
    });
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc,team=ops' }).tracing,
    ).toEqual({
      enabled: true,
      serviceName: 'agent-service',
      tracesUrl: 'http://collector:4318/v1/traces',
      headers: { 'x-api-key': 'abc', team: 'ops' },
    });
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/traces', OTEL_SERVICE_NAME: 'agents-eu' }).tracing,
    ).toMatchObject({ enabled: true, serviceName: 'agents-eu', tracesUrl: 'http://collector:4318/traces' });
    expect(loadConfig({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }).tracing.enabled).toBe(false);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }).tracing.enabled).toBe(false);
  });

  describe('when on (an in-memory exporter)', () => {
    const exporter = new InMemorySpanExporter();
    let stop: StopTracing;
    let fake: FakeServer;
    let t: TestApp;
    let org: TestOrg;

    beforeAll(async () => {
      stop = startTracingForTests(exporter);
      fake = await startFakeOpenAI();
      t = await createTestApp({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key' });
    });
    beforeEach(async () => {
      await t.reset();
      org = await t.factory.org();
      exporter.reset();
    });
    afterAll(async () => {
      await t.close();
      await fake.close();
      await stop();
    });

    it('follows one event in one trace: accept, processing, the turn and its engine steps', async () => {
      const agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      const key = expectStatus(await t.http.post(`/management/v1/agents/${agent.agentId}/api-keys`, {}, org.headers), 201, 'api key').body
        .api_key;
      exporter.reset();
      const res = await t.http.post(EVENTS, { text: 'I am looking for trail shoes', thread_id: 'order-1' }, { 'x-agent-api-key': key });
      expect(res.status).toBe(202);
      const processed = await waitFor(() => exporter.getFinishedSpans().find((s) => s.name === 'event.process'), 'event.process', 20_000);
      const [row] = await t.dataSource.query(`SELECT status FROM events WHERE id = $1`, [res.body.event_id]);
      expect(row.status).toBe('completed');

      const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === processed.spanContext().traceId);
      const accepted = spans.filter((s) => s.name === 'event.accept');
      expect(accepted).toHaveLength(1);
      // The processing is the accept's child: the Bull job carried the trace context.
      expect(parentOf(processed)).toBe(accepted[0]!.spanContext().spanId);
      const turns = childrenOf(spans, processed).filter((s) => s.name === 'turn');
      expect(turns).toHaveLength(1);
      expect(turns[0]!.attributes).toMatchObject({ 'agent.runtime': 'v1', 'agent.provider': 'builtin' });
      expect(
        childrenOf(spans, turns[0]!)
          .map((s) => s.name)
          .sort(),
      ).toEqual([...V1_STEPS].sort());
    });

    it('puts the model call under the turn, as JSON and as a stream', async () => {
      const bundle = { ...shopBundle, model: { provider: 'openai' as const, name: 'local-model' } };
      const agent = await liveAgent(t, org, { bundle, runtime: 'v1' });
      exporter.reset();
      expectStatus(await t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: 'u1' }, agent.headers), 200, 'send');
      const stream = await fetch(`${t.baseUrl}${SEND}/stream`, {
        method: 'POST',
        headers: { ...agent.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'show me jackets', user_id: 'u1' }),
      });
      expect(stream.status).toBe(200);
      await stream.text();
      const turns = await waitFor(
        () => {
          const found = exporter.getFinishedSpans().filter((s) => s.name === 'turn');
          return found.length === 2 ? found : undefined;
        },
        'two turns',
        5000,
      );
      for (const turn of turns) {
        expect(turn.attributes).toMatchObject({ 'agent.runtime': 'v1', 'agent.provider': 'openai' });
        const calls = childrenOf(exporter.getFinishedSpans(), turn).filter((s) => s.name === 'provider.call');
        expect(calls.map((c) => c.attributes)).toEqual([{ 'gen_ai.system': 'openai', 'gen_ai.request.model': 'local-model' }]);
      }
    });

    it('puts the trace and span ids on log lines written inside a span', () => {
      const inside = withSpan('probe', () => ({ fields: traceLogFields(), span: trace.getActiveSpan()!.spanContext() }));
      expect(inside.fields).toEqual({ trace_id: inside.span.traceId, span_id: inside.span.spanId });
      expect(traceLogFields()).toEqual({});
    });

    /**
     * The built service as a real process (Node's ESM loader, not Jest's module registry, which the require hooks
     * cannot see): tracing on with OTEL_EXPORTER_OTLP_ENDPOINT, spans exported to a local OTLP/HTTP receiver.
     */
    it('traces a JSON send in the built service: HTTP server span, turn and engine steps, PostgreSQL and Redis, log ids', async () => {
      const agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      const received: OtlpSpan[] = [];
      const receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          received.push(...otlpSpans(JSON.parse(body)));
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      const service = await startServiceProcess({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' });
      try {
        const res = await fetch(`${service.baseUrl}${SEND}`, {
          method: 'POST',
          headers: { ...agent.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'I am looking for trail shoes', user_id: 'u1' }),
        });
        expect(res.status).toBe(200);
        const turn = await waitFor(() => received.find((s) => s.name === 'turn'), 'the turn span', 10_000);
        const server = await waitFor(
          () => received.find((s) => s.traceId === turn.traceId && s.kind === OTLP_SERVER_KIND),
          'the HTTP server span',
          10_000,
        );
        const inTrace = await waitFor(
          () => {
            const spans = received.filter((s) => s.traceId === turn.traceId);
            return ['@opentelemetry/instrumentation-pg', '@opentelemetry/instrumentation-ioredis'].every((scope) =>
              spans.some((s) => s.scope === scope),
            )
              ? spans
              : undefined;
          },
          'PostgreSQL and Redis spans in the trace of the send',
          10_000,
        );
        expect(server.scope).toBe('@opentelemetry/instrumentation-http');
        const byId = new Map(inTrace.map((s) => [s.spanId, s]));
        const chain: string[] = [];
        for (let p = byId.get(turn.parentSpanId ?? ''); p; p = byId.get(p.parentSpanId ?? '')) chain.push(p.spanId);
        expect(chain).toContain(server.spanId);
        expect(
          inTrace
            .filter((s) => s.parentSpanId === turn.spanId)
            .map((s) => s.name)
            .sort(),
        ).toEqual([...V1_STEPS].sort());
        const requestLine = await waitFor(
          () => service.logs.map(parseLine).find((l) => l?.msg === 'request' && l.path === SEND),
          'the request log line',
          5000,
        );
        expect(requestLine).toMatchObject({
          trace_id: turn.traceId,
          span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
          reqId: expect.any(String),
        });
      } finally {
        await service.stop();
        await new Promise((resolve) => receiver.close(resolve));
      }
    });

    it('names the v2 steps (retrieval) and nothing of a tenant in the turn’s attributes', async () => {
      const agent = await liveAgent(t, org, { template: 'knowledge-assistant' });
      exporter.reset();
      expectStatus(await t.http.post(SEND, { text: 'How do I reset my password?', user_id: 'u1' }, agent.headers), 200, 'send');
      const turn = await waitFor(() => exporter.getFinishedSpans().find((s) => s.name === 'turn'), 'turn', 5000);
      expect(Object.keys(turn.attributes).sort()).toEqual(['agent.provider', 'agent.runtime', 'agent.surface']);
      expect(turn.attributes['agent.runtime']).toBe('v2');
      const steps = childrenOf(exporter.getFinishedSpans(), turn).map((s) => s.name);
      expect(steps).toEqual(expect.arrayContaining(['engine.guardrails', 'engine.intent', 'engine.retrieval', 'engine.compose']));
    });
  });

  it('is off again once stopped: no provider, no recording span, no ids for log lines', () => {
    expect(tracingEnabled()).toBe(false);
    expect(providerDelegate()?.constructor.name).toBe('NoopTracerProvider');
    expect(withSpan('engine.intent', () => trace.getActiveSpan())).toBeUndefined();
  });
});
