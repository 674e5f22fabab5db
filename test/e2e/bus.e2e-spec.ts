import { liveAgent, type LiveTestAgent } from '../support/agents.js';
import { eventually } from '../support/fake-twilio-server.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import type { TestOrg } from '../factories/factory.js';

/** The other process's count of live-agent cache entries dropped by an announcement (TTL expiry is not counted). */
async function liveAgentInvalidations(metricsUrl: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('agent_cache_invalidations_total{cache="live_agents"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('event bus across processes', () => {
  let t: TestApp;
  /** A second API process on the same database and Redis: it hears this one's broadcast events only through Redis. */
  let other: ServiceProcess;
  let otherMetrics: string;
  let org: TestOrg;
  let agent: LiveTestAgent;

  beforeAll(async () => {
    t = await createTestApp();
    other = await startServiceProcess();
    otherMetrics = await eventually(async () => {
      const line = other.logs.find((l) => l.includes('metrics listening'));
      return line ? (JSON.parse(line) as { url: string }).url.replace(/\/metrics$/, '') : undefined;
    }, 'the other process serves metrics');
  }, 60_000);
  beforeEach(async () => {
    await t.reset();
    org = await t.factory.org();
    agent = await liveAgent(t, org, { bundle: { name: 'Bus', welcome_message: 'first welcome' }, runtime: 'v1' });
  });
  afterAll(async () => {
    await other?.stop();
    await t?.close();
  });

  const otherWelcome = async () => (await other.http.get('/messaging/v1/welcome-message', agent.headers)).body.welcome_message;

  it('drops the other process cached live agent when this one publishes (agent.live_changed)', async () => {
    expect(await otherWelcome()).toBe('first welcome');
    const before = await liveAgentInvalidations(otherMetrics);
    const push = await t.http.post(
      `/management/v1/agents/${agent.agentId}/versions/${agent.versionId}/push`,
      { bundle: { name: 'Bus', welcome_message: 'second welcome' } },
      org.headers,
    );
    expect(push.status).toBe(200);
    const publish = await t.http.post(`/management/v1/agents/${agent.agentId}/versions/${agent.versionId}/publish`, undefined, org.headers);
    expect(publish.status).toBe(200);

    await eventually(async () => (await liveAgentInvalidations(otherMetrics)) === before + 1, 'the other process dropped the entry');
    expect(await otherWelcome()).toBe('second welcome');
  });

  it('drops the other process cached agents of a deleted project (project.deleted)', async () => {
    expect(await otherWelcome()).toBe('first welcome');
    const before = await liveAgentInvalidations(otherMetrics);
    const { project_id: projectId } = (await t.http.get(`/management/v1/agents/${agent.agentId}`, org.headers)).body;
    expect((await t.http.delete(`/management/v1/projects/${projectId}`, org.headers)).status).toBe(204);

    await eventually(async () => (await liveAgentInvalidations(otherMetrics)) === before + 1, 'the other process dropped the entry');
  });
});
