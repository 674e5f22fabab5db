import { hostname } from 'node:os';
import { startServiceProcess, startWorkerProcess } from '../support/service-process.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';

/**
 * Real processes (the built service and worker): drain on SIGTERM, the worker's health endpoints, and who each process
 * says it is in its logs and metrics (docs/operations.md, "Shutdown and drain", "Identity").
 */
describe('process identity, health and drain', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const metricsUrlOf = (logs: string[]) =>
    waitFor(() => logs.map((l) => /"(?:url|metricsUrl)":"(http:\/\/[^"]+\/metrics)"/.exec(l)?.[1]).find(Boolean), 'the metrics URL');
  const sample = (text: string, name: string) => text.split('\n').find((l) => l.startsWith(name));

  it('on SIGTERM answers not ready at once, keeps serving requests through the drain period, then exits 0', async () => {
    const org = await t.factory.org();
    // The period only has to outlast the few requests below; the process exits when it ends.
    const service = await startServiceProcess({ SHUTDOWN_DRAIN_MS: '8000' });
    expect((await service.http.get('/health/ready')).status).toBe(200);
    service.child.kill('SIGTERM');
    await waitFor(() => service.logs.some((l) => l.includes('"shutting down"')), 'the shutdown log line');

    const ready = await service.http.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(ready.body.error).toMatchObject({
      code: 'not_ready',
      details: [{ field: 'shutdown', message: 'this instance is shutting down' }],
    });
    expect((await service.http.get('/health')).status).toBe(200);
    const served = await service.http.get('/management/v1/projects', org.headers);
    expect(served.status).toBe(200);

    expect(await service.exited).toBe(0);
    await expect(fetch(`${service.baseUrl}/health`)).rejects.toThrow();
  });

  it('every log line names the instance, host and pid; agent_build_info names the build', async () => {
    const service = await startServiceProcess({ INSTANCE_NAME: 'api-7', BUILD_COMMIT: 'abc1234' });
    try {
      const lines = service.logs.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatchObject({ instance: 'api-7', host: hostname(), pid: service.child.pid });
      const text = await (await fetch(await metricsUrlOf(service.logs))).text();
      expect(sample(text, 'agent_build_info')).toBe(
        `agent_build_info{version="0.1.0",commit="abc1234",node_version="${process.versions.node}",instance_name="api-7"} 1`,
      );
      expect(sample(text, 'agent_revocation_listener_connected')).toBe('agent_revocation_listener_connected 1');
      expect(sample(text, 'agent_bus_relay_subscribed')).toBe('agent_bus_relay_subscribed 1');
      expect(text).toContain('agent_bus_relay_messages_total{direction="received"}');
      expect(text).toContain('agent_revocation_notifications_total');
    } finally {
      await service.stop();
    }
  });

  it('the worker answers /health and /health/ready on its metrics listener (no token needed), and exits 0 on SIGTERM', async () => {
    const worker = await startWorkerProcess({
      METRICS_TOKEN: 'worker-metrics-token-0123456789',
      // Its own queue keys: its processors take no job of other tests.
      REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX}-drain-worker`,
    });
    const base = (await metricsUrlOf(worker.logs)).replace(/\/metrics$/, '');
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const live = await fetch(`${base}/health`);
    expect([live.status, await live.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${base}/health/ready`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ok', checks: { database: 'ok', redis: 'ok' } }]);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  });
});
