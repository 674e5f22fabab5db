import type { TestApp } from '../support/test-app.js';
import { OrganizationsService } from '../../src/modules/organizations/organizations.service.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { Oracle, report, sendRaw, type RawRequest } from './support/oracles.js';
import { seedTenant, startHostileApp, type Tenant } from './support/world.js';

/** Each revoked credential is tried until refused, then this many more times (a revocation never comes undone). */
const AFTER_REFUSAL = 10;
/** How long the other instance may take to refuse before that is a violation: generous, not a latency bound. */
const REFUSAL_DEADLINE_MS = 20_000;
const POLL_EVERY_MS = 25;

interface Probe {
  name: string;
  request: RawRequest;
  /** The answer a refused request must have. */
  statuses: number[];
  oauth?: boolean;
}

describe('hostile input: revocation and deletion take effect at once', () => {
  let t: TestApp;
  /** A second instance on the same database and Redis: it learns of revocations only through the broadcast. */
  let other: ServiceProcess;
  let close: () => Promise<void>;
  const oracle = new Oracle('revocation');

  beforeAll(async () => {
    const started = await startHostileApp();
    ({ t, close } = started);
    other = await startServiceProcess({ RATE_LIMIT_MAX: '1000000', EVENTS_MAX_BACKLOG: '1000000' });
  }, 60_000);
  afterAll(async () => {
    report(oracle);
    await other?.stop();
    await close();
  });

  const welcome = (tenant: Tenant): Probe => ({
    name: 'messaging with the token',
    request: { method: 'GET', url: '/messaging/v1/welcome-message', headers: tenant.bearer },
    statuses: [401, 404],
  });
  const send = (tenant: Tenant): Probe => ({
    name: 'send with the token',
    statuses: [401, 404],
    request: {
      method: 'POST',
      url: '/messaging/v1/messages',
      headers: { ...tenant.bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'still there?', user_id: 'u' }),
    },
  });
  const exchange = (tenant: Tenant): Probe => ({
    name: 'token exchange with the publishable key',
    statuses: [400],
    oauth: true,
    request: {
      method: 'POST',
      url: '/management/v1/auth/token',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'publishable_key', publishable_key: tenant.publishableKey }),
    },
  });
  const event = (tenant: Tenant): Probe => ({
    name: 'event with the agent API key',
    statuses: [401],
    request: {
      method: 'POST',
      url: '/messaging/v1/events',
      headers: { ...tenant.agentKeyHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'still there?' }),
    },
  });
  const management = (headers: Record<string, string>): Probe => ({
    name: 'management with the credential',
    request: { method: 'GET', url: '/management/v1/projects', headers },
    statuses: [401],
  });

  /** Sends every probe to both instances until `warm` (all accepted), so each instance has the credential cached. */
  async function warm(probes: Probe[]): Promise<void> {
    for (const app of [t, other]) {
      for (const probe of probes) {
        for (let i = 0; i < 2; i++) {
          const res = await sendRaw(app.baseUrl, probe.request);
          if (res.status >= 300) throw new Error(`warm-up of "${probe.name}" answered ${res.status}: ${res.text}`);
        }
      }
    }
  }

  /**
   * Right after `revoke` answered, tries every probe on both instances, one request after another, until it is
   * refused and AFTER_REFUSAL more times. Violations: any acceptance on the revoking instance; on the other one, an
   * acceptance after its first refusal, or no refusal within REFUSAL_DEADLINE_MS; a refusal with the wrong status.
   * Order of outcomes, not elapsed time.
   */
  async function pollAfter(what: string, revoke: () => Promise<void>, probes: Probe[]): Promise<void> {
    await revoke();
    const tries = (instance: string, app: { baseUrl: string }) =>
      probes.map(async (probe) => {
        const deadline = Date.now() + REFUSAL_DEADLINE_MS;
        let refusals = 0;
        for (let attempt = 1; refusals <= AFTER_REFUSAL; attempt += 1) {
          const res = await sendRaw(app.baseUrl, probe.request);
          const mutation = `${probe.name} on the ${instance}, request ${attempt} after ${what}`;
          oracle.check(what, mutation, res, { oauth: probe.oauth });
          if (res.status < 300) {
            if (instance === 'revoking instance' || refusals > 0) {
              const when = refusals > 0 ? 'after a refusal' : 'after revocation';
              oracle.record({ operation: what, mutation, status: res.status, problem: `accepted ${when}`, excerpt: res.text });
            }
            if (Date.now() > deadline) {
              oracle.record({ operation: what, mutation, status: res.status, problem: 'never refused', excerpt: res.text });
              return;
            }
            await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
            continue;
          }
          refusals += 1;
          if (!probe.statuses.includes(res.status)) {
            oracle.record({
              operation: what,
              mutation,
              status: res.status,
              problem: `revoked credential answered ${res.status}, not ${probe.statuses.join('/')}`,
              excerpt: res.text,
            });
          }
        }
      });
    await Promise.all([...tries('revoking instance', t), ...tries('other instance', other)]);
  }

  function expectNoViolations(what: string): void {
    const mine = oracle.violations.filter((v) => v.operation === what);
    if (mine.length > 0) {
      throw new Error(
        `${mine.length} violations after ${what}:\n${mine
          .slice(0, 30)
          .map((v) => `  - ${v.mutation} | ${v.status} | ${v.problem} | ${v.excerpt}`)
          .join('\n')}`,
      );
    }
  }

  it('refuses a revoked publishable key and the tokens minted from it from the 204 on', async () => {
    const tenant = await seedTenant(t, 'pk');
    const what = 'DELETE publishable key';
    await warm([welcome(tenant), exchange(tenant)]);
    await pollAfter(what, async () => {
      expect(
        (await t.http.delete(`/management/v1/agents/${tenant.agentId}/publishable-keys/${tenant.publishableKeyId}`, tenant.org.headers))
          .status,
      ).toBe(204);
    }, [welcome(tenant), send(tenant), exchange(tenant)]);
    expectNoViolations(what);
  }, 30_000);

  it('refuses a revoked agent API key from the 204 on, with 401 (not 404 no_active_version)', async () => {
    const tenant = await seedTenant(t, 'ak');
    const what = 'DELETE agent API key';
    await warm([event(tenant)]);
    await pollAfter(what, async () => {
      expect(
        (await t.http.delete(`/management/v1/agents/${tenant.agentId}/api-keys/${tenant.agentApiKeyId}`, tenant.org.headers)).status,
      ).toBe(204);
    }, [event(tenant)]);
    expectNoViolations(what);
  }, 30_000);

  it('refuses a revoked agent API key of an agent without a live version with 401', async () => {
    const tenant = await seedTenant(t, 'ak-unpublished');
    const agent = await t.factory.agent(tenant.org);
    const key = await t.http.post(`/management/v1/agents/${agent.id}/api-keys`, undefined, tenant.org.headers);
    const probe: Probe = {
      ...event(tenant),
      request: { ...event(tenant).request, headers: { 'x-agent-api-key': key.body.api_key, 'content-type': 'application/json' } },
    };
    const what = 'DELETE agent API key (agent not published)';
    for (const app of [t, other]) await sendRaw(app.baseUrl, probe.request);
    await pollAfter(what, async () => {
      expect((await t.http.delete(`/management/v1/agents/${agent.id}/api-keys/${key.body.id}`, tenant.org.headers)).status).toBe(204);
    }, [probe]);
    expectNoViolations(what);
  }, 30_000);

  // Organizations and users have no HTTP route: they are deleted through the operator path (what `cli org:delete`
  // and `user:delete` run) on the first instance.
  it('refuses a deleted organization’s key (and its agents’ credentials) from the deletion on', async () => {
    const tenant = await seedTenant(t, 'ok');
    const what = 'organization deleted (OrganizationsService.deleteOrganization)';
    await warm([management(tenant.org.headers), welcome(tenant)]);
    await pollAfter(what, () => t.app.get(OrganizationsService).deleteOrganization(tenant.org.id), [
      management(tenant.org.headers),
      welcome(tenant),
      exchange(tenant),
    ]);
    expectNoViolations(what);
  }, 30_000);

  it('refuses a deleted user’s session token from the deletion on', async () => {
    const tenant = await seedTenant(t, 'user');
    const user = await t.factory.user(tenant.org);
    const login = await t.http.post('/management/v1/auth/token', { grant_type: 'password', username: user.email, password: user.password });
    expect(login.status).toBe(200);
    const headers = { authorization: `Bearer ${login.body.access_token}` };
    const what = 'user deleted (OrganizationsService.deleteUser)';
    await warm([management(headers)]);
    await pollAfter(what, () => t.app.get(OrganizationsService).deleteUser(user.id), [management(headers)]);
    expectNoViolations(what);
  }, 30_000);

  it('stops a deleted project’s agents at once: token, publishable key and agent key', async () => {
    const tenant = await seedTenant(t, 'project');
    const what = 'DELETE project';
    await warm([welcome(tenant), exchange(tenant), event(tenant)]);
    await pollAfter(what, async () => {
      expect((await t.http.delete(`/management/v1/projects/${tenant.projectId}`, tenant.org.headers)).status).toBe(204);
    }, [welcome(tenant), send(tenant), exchange(tenant), { ...event(tenant), statuses: [401, 404] }]);
    expectNoViolations(what);
  }, 30_000);

  it('stops a deleted agent at once: token, publishable key and agent key', async () => {
    const tenant = await seedTenant(t, 'agent');
    const what = 'DELETE agent';
    await warm([welcome(tenant), exchange(tenant), event(tenant)]);
    await pollAfter(what, async () => {
      expect((await t.http.delete(`/management/v1/agents/${tenant.agentId}`, tenant.org.headers)).status).toBe(204);
    }, [welcome(tenant), send(tenant), exchange(tenant), { ...event(tenant), statuses: [401, 404] }]);
    expectNoViolations(what);
  }, 30_000);
});
