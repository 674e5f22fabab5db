import { OrganizationsService } from '../../src/modules/organizations/organizations.service.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, shopBundle } from '../support/agents.js';
import type { HttpClient } from '../support/http.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const TOKEN = '/management/v1/auth/token';
const SEND = '/messaging/v1/messages';
const EVENTS = '/messaging/v1/events';
const UNKNOWN_ID = '0123456789abcdef01234567';
/** Probes sent after the first refusal: each must be refused too (a revocation never comes undone). */
const AFTER_REFUSAL = 10;
/** How long the other instance may take to refuse before the test gives up: generous, not a latency bound. */
const REFUSAL_DEADLINE_MS = 20_000;

/** What a probe needs of an instance: its HTTP client. */
interface Instance {
  http: HttpClient;
}
type Probe = (app: Instance) => Promise<number>;

/**
 * Probes `app` one request after another until it answers `refused` (giving up after REFUSAL_DEADLINE_MS), then
 * AFTER_REFUSAL more times. Returns every answer, in order.
 */
async function untilRefused(app: Instance, probe: Probe, refused: number): Promise<number[]> {
  const seen: number[] = [];
  const deadline = Date.now() + REFUSAL_DEADLINE_MS;
  while (seen.indexOf(refused) < 0 ? Date.now() < deadline : seen.length - seen.indexOf(refused) <= AFTER_REFUSAL) {
    seen.push(await probe(app));
    if (!seen.includes(refused)) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return seen;
}

/**
 * Two instances of the service (same PostgreSQL and Redis), as a deployment runs them. `a` performs every
 * revocation; `b` has the credential in its cache beforehand, so only the broadcast can make it refuse in time.
 */
describe('revocation and deletion across instances', () => {
  let a: TestApp;
  let b: ServiceProcess;
  let org: TestOrg;
  beforeAll(async () => {
    a = await createTestApp();
    b = await startServiceProcess();
  });
  beforeEach(async () => {
    await a.reset();
    org = await a.factory.org();
  });
  afterAll(async () => {
    await b?.stop();
    await a?.close();
  });

  /**
   * Warms both instances' caches with an accepted request, runs `revoke`, then probes both: on `a` the first request
   * after the revocation returned, and every one after it, is refused; on `b` (which only the broadcast can tell) a
   * refusal comes, and nothing is accepted after it. Outcomes and their order, not elapsed time: how fast `b` learns
   * is measured in docs/security.md, not asserted here.
   */
  async function expectRevokedEverywhere(probe: Probe, refused: number, revoke: () => Promise<void>): Promise<void> {
    expect(await probe(a)).not.toBe(refused);
    expect(await probe(b)).not.toBe(refused);
    await revoke();
    const [onA, onB] = await Promise.all([untilRefused(a, probe, refused), untilRefused(b, probe, refused)]);
    expect(onA[0]).toBe(refused);
    expect(onA.filter((status) => status !== refused)).toEqual([]);
    const firstRefusal = onB.indexOf(refused);
    expect(firstRefusal).toBeGreaterThanOrEqual(0);
    expect(onB.slice(firstRefusal).filter((status) => status !== refused)).toEqual([]);
  }

  async function agentWithKeys() {
    const agent = await a.factory.agent(org);
    const pk = expectStatus(
      await a.http.post(`/management/v1/agents/${agent.id}/publishable-keys`, {}, org.headers),
      201,
      'publishable key',
    ).body;
    const ak = expectStatus(await a.http.post(`/management/v1/agents/${agent.id}/api-keys`, {}, org.headers), 201, 'api key').body;
    const token = expectStatus(
      await a.http.post(TOKEN, { grant_type: 'publishable_key', publishable_key: pk.publishable_key }),
      200,
      'exchange',
    ).body.access_token as string;
    return { agent, pk, ak, token };
  }

  it('a revoked publishable key: its tokens are refused at once on A, and on B before any later success', async () => {
    const { agent, pk, token } = await agentWithKeys();
    // The agent has no live version: an accepted token gets 404 no_active_version, a refused one 401.
    const probe: Probe = async (app) =>
      (await app.http.post(SEND, { text: 'hi', user_id: 'u1' }, { authorization: `Bearer ${token}` })).status;
    await expectRevokedEverywhere(probe, 401, async () => {
      expect((await a.http.delete(`/management/v1/agents/${agent.id}/publishable-keys/${pk.id}`, org.headers)).status).toBe(204);
    });
    for (const app of [a, b]) {
      const exchange = await app.http.post(TOKEN, { grant_type: 'publishable_key', publishable_key: pk.publishable_key });
      expect(exchange.body).toEqual({ error: 'invalid_grant', error_description: 'invalid_publishable_key' });
    }
  });

  it('a revoked agent API key is refused by the events webhook at once on A, and on B before any later success', async () => {
    const { agent, ak } = await agentWithKeys();
    const probe: Probe = async (app) => (await app.http.get(`${EVENTS}/${UNKNOWN_ID}`, { 'x-agent-api-key': ak.api_key })).status;
    await expectRevokedEverywhere(probe, 401, async () => {
      expect((await a.http.delete(`/management/v1/agents/${agent.id}/api-keys/${ak.id}`, org.headers)).status).toBe(204);
    });
    expect((await b.http.post(EVENTS, { text: 'hi' }, { 'x-agent-api-key': ak.api_key })).status).toBe(401);
  });

  it("a deleted organization's API key is refused at once on A, and on B before any later success", async () => {
    const other = await a.factory.org();
    const probe: Probe = async (app) => (await app.http.get('/management/v1/projects', org.headers)).status;
    await expectRevokedEverywhere(probe, 401, () => a.app.get(OrganizationsService).deleteOrganization(org.id));
    expect((await b.http.get('/management/v1/projects', other.headers)).status).toBe(200);
  });

  it('deletes an organization that has conversations: its usage roll-up goes with it, another organization keeps its own', async () => {
    const other = await a.factory.org();
    for (const owner of [org, other]) {
      const agent = await liveAgent(a, owner, { bundle: shopBundle, runtime: 'v1' });
      expectStatus(await a.http.post(SEND, { text: 'hello', user_id: 'u1' }, agent.headers), 200, 'send');
    }
    await a.app.get(OrganizationsService).deleteOrganization(org.id);
    const left = await a.dataSource.query(`SELECT organization_id, sum(interaction_count)::int AS n FROM usage_daily GROUP BY 1`);
    expect(left).toEqual([{ organization_id: other.id, n: 1 }]);
    expect(await a.dataSource.query(`SELECT id FROM interactions WHERE organization_id = $1`, [org.id])).toEqual([]);
  });

  it("a deleted user's session is refused at once on A, and on B before any later success", async () => {
    const user = await a.factory.user(org);
    const login = expectStatus(
      await a.http.post(TOKEN, { grant_type: 'password', username: user.email, password: user.password }),
      200,
      'login',
    ).body;
    const probe: Probe = async (app) =>
      (await app.http.get('/management/v1/projects', { authorization: `Bearer ${login.access_token}` })).status;
    await expectRevokedEverywhere(probe, 401, () => a.app.get(OrganizationsService).deleteUser(user.id));
    expect((await a.http.post(TOKEN, { grant_type: 'password', username: user.email, password: user.password })).body.error).toBe(
      'invalid_grant',
    );
  });

  it("a deleted agent's client token is refused at once on A, and on B before any later success", async () => {
    const { agent, token } = await agentWithKeys();
    const probe: Probe = async (app) =>
      (await app.http.post(SEND, { text: 'hi', user_id: 'u1' }, { authorization: `Bearer ${token}` })).status;
    await expectRevokedEverywhere(probe, 401, async () => {
      expect((await a.http.delete(`/management/v1/agents/${agent.id}`, org.headers)).status).toBe(204);
    });
  });

  it('an instance that lost the broadcast connection still refuses, and listens again', async () => {
    const listeners = async () =>
      Number(
        (
          await a.dataSource.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'agent-service-credentials' AND datname = current_database()`,
          )
        )[0].n,
      );
    expect(await listeners()).toBe(2);
    const { agent, ak } = await agentWithKeys();
    const second = expectStatus(await a.http.post(`/management/v1/agents/${agent.id}/api-keys`, {}, org.headers), 201, 'api key').body;
    const probe =
      (key: string): Probe =>
      async (app) =>
        (await app.http.get(`${EVENTS}/${UNKNOWN_ID}`, { 'x-agent-api-key': key })).status;

    // Both instances lose their listener; the revocation is made while they reconnect.
    await a.dataSource.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'agent-service-credentials' AND datname = current_database()`,
    );
    await expectRevokedEverywhere(probe(ak.api_key), 401, async () => {
      expect((await a.http.delete(`/management/v1/agents/${agent.id}/api-keys/${ak.id}`, org.headers)).status).toBe(204);
    });

    const deadline = Date.now() + 10_000;
    while ((await listeners()) < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await listeners()).toBe(2);
    await expectRevokedEverywhere(probe(second.api_key), 401, async () => {
      expect((await a.http.delete(`/management/v1/agents/${agent.id}/api-keys/${second.id}`, org.headers)).status).toBe(204);
    });
  });

  describe('deleting a project stops its agents on every surface', () => {
    async function liveAgentWithCredentials() {
      const live = await liveAgent(a, org, { bundle: shopBundle, runtime: 'v1' });
      const project = (await a.http.get(`/management/v1/agents/${live.agentId}`, org.headers)).body.project_id as string;
      const pk = expectStatus(
        await a.http.post(`/management/v1/agents/${live.agentId}/publishable-keys`, {}, org.headers),
        201,
        'publishable key',
      ).body;
      const ak = expectStatus(await a.http.post(`/management/v1/agents/${live.agentId}/api-keys`, {}, org.headers), 201, 'api key').body;
      const user = await a.factory.user(org);
      const session = expectStatus(
        await a.http.post(TOKEN, { grant_type: 'password', username: user.email, password: user.password, agent_id: live.agentId }),
        200,
        'agent-scoped login',
      ).body.access_token as string;
      return { ...live, project, pk, ak, session };
    }
    const deleteProject = async (project: string) => {
      expect((await a.http.delete(`/management/v1/projects/${project}`, org.headers)).status).toBe(204);
    };

    it('client tokens of its agents are refused at once on A, and on B before any later success', async () => {
      const live = await liveAgentWithCredentials();
      const probe: Probe = async (app) =>
        (await app.http.post(SEND, { text: 'Do you have trail shoes?', user_id: 'u1' }, live.headers)).status;
      expect(await probe(a)).toBe(200);
      await expectRevokedEverywhere(probe, 401, () => deleteProject(live.project));
    });

    it('its agent API keys are refused by the events webhook at once on A, and on B before any later success', async () => {
      const live = await liveAgentWithCredentials();
      const probe: Probe = async (app) => (await app.http.get(`${EVENTS}/${UNKNOWN_ID}`, { 'x-agent-api-key': live.ak.api_key })).status;
      await expectRevokedEverywhere(probe, 401, () => deleteProject(live.project));
      const post = await a.http.post(EVENTS, { text: 'hi' }, { 'x-agent-api-key': live.ak.api_key });
      expect(post.status).toBe(401);
      expect(post.body.error.code).toBe('unauthorized');
    });

    it('sessions scoped to its agents are refused for messaging at once on A, and on B before any later success', async () => {
      const live = await liveAgentWithCredentials();
      const probe: Probe = async (app) =>
        (await app.http.post(SEND, { text: 'hi', user_id: 'u1' }, { authorization: `Bearer ${live.session}` })).status;
      expect(await probe(a)).toBe(200);
      await expectRevokedEverywhere(probe, 401, () => deleteProject(live.project));
    });

    it('its publishable keys no longer exchange (invalid_grant) and management no longer shows its agents', async () => {
      const live = await liveAgentWithCredentials();
      await deleteProject(live.project);
      for (const app of [a, b]) {
        const exchange = await app.http.post(TOKEN, { grant_type: 'publishable_key', publishable_key: live.pk.publishable_key });
        expect(exchange.status).toBe(400);
        expect(exchange.body).toEqual({ error: 'invalid_grant', error_description: 'invalid_publishable_key' });
        expect((await app.http.get(`/management/v1/agents/${live.agentId}`, org.headers)).status).toBe(404);
      }
      const login = await a.http.post(TOKEN, {
        grant_type: 'password',
        username: (await a.factory.user(org)).email,
        password: 'correct horse battery',
        agent_id: live.agentId,
      });
      expect(login.body).toEqual({ error: 'invalid_grant', error_description: 'unknown_agent' });
    });
  });
});
