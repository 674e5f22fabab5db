import { liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { inboundParams, signTwilioRequest, startFakeTwilio, type FakeTwilio } from '../support/fake-twilio-server.js';
import { startServiceProcess, startWorkerProcess, type ChildServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
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
    otherMetrics = await waitFor(async () => {
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

    await waitFor(async () => (await liveAgentInvalidations(otherMetrics)) === before + 1, 'the other process dropped the entry');
    expect(await otherWelcome()).toBe('second welcome');
  });

  it('drops the other process cached agents of a deleted project (project.deleted)', async () => {
    expect(await otherWelcome()).toBe('first welcome');
    const before = await liveAgentInvalidations(otherMetrics);
    const { project_id: projectId } = (await t.http.get(`/management/v1/agents/${agent.agentId}`, org.headers)).body;
    expect((await t.http.delete(`/management/v1/projects/${projectId}`, org.headers)).status).toBe(204);

    await waitFor(async () => (await liveAgentInvalidations(otherMetrics)) === before + 1, 'the other process dropped the entry');
  });
});

describe('event announcements where the API and the worker are separate processes', () => {
  const PUBLIC_BASE = 'https://agents.example.com';
  const PHONE = '+15557654321';
  const SENDER = '+15550001111';
  let t: TestApp;
  /** `npm run worker`: it runs the events, so it hears their `event.completed` and answers the phone. */
  let worker: ChildServiceProcess;
  let twilio: FakeTwilio;

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    const channels = {
      CHANNEL_PROVIDER_BASE_URL: twilio.url,
      CHANNEL_PROVIDER_ACCOUNT_SID: twilio.accountSid,
      CHANNEL_PROVIDER_AUTH_TOKEN: twilio.authToken,
      CHANNEL_PUBLIC_BASE_URL: PUBLIC_BASE,
      CHANNEL_DEFAULT_SENDER_SMS: SENDER,
    };
    t = await createTestApp({ ...channels, WORKERS: 'off' });
    await t.reset();
    worker = await startWorkerProcess(channels);
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    await twilio?.close();
  });

  it('answers a channel message received by the API from the worker that ran its event', async () => {
    const org = await t.factory.org();
    const agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    const started = await t.http.post('/messaging/v1/channels/sms/threads', { user_id: 'u', phone_number: PHONE }, agent.headers);
    expect(started.status).toBe(201);
    await twilio.waitForMessages(1);

    const path = '/messaging/v1/channels/sms/inbound';
    const params = inboundParams(twilio.accountSid, { from: PHONE, to: SENDER, body: 'show me jackets' });
    const res = await t.http.request('POST', path, {
      raw: new URLSearchParams(params).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signTwilioRequest(twilio.authToken, `${PUBLIC_BASE}${path}`, params),
      },
    });
    expect(res.status).toBe(200);

    const [, answer] = await twilio.waitForMessages(2);
    expect(answer).toMatchObject({ to: PHONE, from: SENDER });
    expect(answer!.body).toContain('Storm Shell Jacket');
  });
});
