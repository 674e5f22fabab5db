// Webhook delivery fairness and caps (docs/webhooks.md, "Fairness between organizations" and "Limits"): one
// organization's slow endpoints must not delay another organization's deliveries, and the number of endpoints (and
// so of delivery rows one change writes) is bounded.
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
import { Receiver } from '../support/webhook-receiver.js';

const webhooksOf = (projectId: string) => `/management/v1/projects/${projectId}/webhooks`;

interface Tenant {
  org: TestOrg;
  agent: LiveTestAgent;
  projectId: string;
}

describe('webhook delivery fairness between organizations', () => {
  let t: TestApp;
  let slow: Receiver;
  let fast: Receiver;

  beforeAll(async () => {
    slow = new Receiver();
    fast = new Receiver();
    await Promise.all([slow.start(), fast.start()]);
    // The defaults that matter here: WEBHOOKS_TIMEOUT_MS 10 s and WEBHOOKS_CONCURRENCY 8. Room for 40 endpoints.
    t = await createTestApp({ WEBHOOKS_MAX_ENDPOINTS_PER_PROJECT: '40', WEBHOOKS_MAX_DELIVERIES_PER_CHANGE: '40' });
  });
  beforeEach(() => t.reset());
  afterAll(async () => {
    await t.close();
    await Promise.all([slow.close(), fast.close()]);
  });

  async function tenant(): Promise<Tenant> {
    const org = await t.factory.org();
    const agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    const projectId = expectStatus(await t.http.get(`/management/v1/agents/${agent.agentId}`, org.headers), 200, 'agent').body.project_id;
    return { org, agent, projectId };
  }

  async function subscribe(who: Tenant, receiver: Receiver, path: string): Promise<void> {
    const res = expectStatus(
      await t.http.post(webhooksOf(who.projectId), { url: `${receiver.url}${path}`, events: ['turn.completed'] }, who.org.headers),
      201,
      'subscribe',
    );
    receiver.trust(path, res.body.secret);
  }

  const turn = (who: Tenant) =>
    t.http
      .post('/messaging/v1/messages', { user_id: 'u1', text: 'hello' }, who.agent.headers)
      .then((res) => expectStatus(res, 200, 'turn'));

  it("delivers B's turn.completed while A's 40 slow endpoints are still pending", async () => {
    const a = await tenant();
    const b = await tenant();
    const slowPaths = Array.from({ length: 40 }, () => slow.path([], { afterMs: 11_000 }));
    for (const path of slowPaths) await subscribe(a, slow, path);
    const bPath = fast.path();
    await subscribe(b, fast, bPath);

    await turn(a);
    // A's deliveries have started (the service is busy with A) before B's turn.
    await waitFor(() => slow.received.length > 0, "the first of A's deliveries");
    await turn(b);

    // Generous deadline: the outcome asserted is the order, not the time.
    const [delivered] = await fast.waitFor(bPath, 1, 'turn.completed');
    expect(delivered!.payload.organization_id).toBe(b.org.id);
    // When B's delivery arrived, A's backlog had not been worked through first: fewer of A's 40 deliveries had
    // reached A's receiver than one worker sends at once (WEBHOOKS_CONCURRENCY, 8), so B did not wait for a
    // round of A's 10-second attempts.
    expect(slow.received.length).toBeLessThan(8);
    const pendingOfA = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE organization_id = $1 AND status = 'pending'`,
      [a.org.id],
    );
    expect(pendingOfA[0].n).toBe(40);
  }, 60_000);
});

describe('webhook endpoint and delivery caps', () => {
  let t: TestApp;
  let receiver: Receiver;
  let org: TestOrg;

  beforeAll(async () => {
    receiver = new Receiver();
    await receiver.start();
    t = await createTestApp({
      WEBHOOKS_MAX_ENDPOINTS_PER_PROJECT: '2',
      WEBHOOKS_MAX_ENDPOINTS_PER_ORGANIZATION: '3',
      WEBHOOKS_MAX_DELIVERIES_PER_CHANGE: '2',
    });
  });
  beforeEach(async () => {
    await t.reset();
    org = await t.factory.org();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const create = (projectId: string, who: TestOrg = org) =>
    t.http.post(webhooksOf(projectId), { url: 'https://hooks.example.com/a', events: ['turn.completed'] }, who.headers);

  it('answers 409 webhook_limit_reached beyond the endpoints of a project and of an organization, and creates nothing', async () => {
    const first = await t.factory.project(org);
    const second = await t.factory.project(org);
    expectStatus(await create(first.id), 201, 'first endpoint');
    expectStatus(await create(first.id), 201, 'second endpoint');
    const overProject = await create(first.id);
    expect(overProject.status).toBe(409);
    expect(overProject.body.error).toMatchObject({ code: 'webhook_limit_reached', message: expect.stringContaining('project') });

    expectStatus(await create(second.id), 201, 'third endpoint of the organization');
    const overOrganization = await create(second.id);
    expect(overOrganization.status).toBe(409);
    expect(overOrganization.body.error).toMatchObject({ code: 'webhook_limit_reached', message: expect.stringContaining('organization') });

    const rows = await t.dataSource.query(`SELECT project_id FROM webhook_endpoints WHERE organization_id = $1`, [org.id]);
    expect(rows).toHaveLength(3);
    // Another organization is not affected by this one's endpoints; deleting one frees its place.
    const other = await t.factory.org();
    expectStatus(await create((await t.factory.project(other)).id, other), 201, "another organization's endpoint");
    const list = expectStatus(await t.http.get(webhooksOf(first.id), org.headers), 200, 'list').body.results;
    expectStatus(await t.http.delete(`${webhooksOf(first.id)}/${list[0].id}`, org.headers), 204, 'delete');
    expectStatus(await create(second.id), 201, 'endpoint after a deletion');
  });

  it('creates at most the cap under concurrent creations', async () => {
    const project = await t.factory.project(org);
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(project.id)));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(2);
    expect(answers.filter((res) => res.status === 409)).toHaveLength(4);
  });

  it('writes at most WEBHOOKS_MAX_DELIVERIES_PER_CHANGE deliveries per change: the oldest endpoints get them', async () => {
    const agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    const projectId = expectStatus(await t.http.get(`/management/v1/agents/${agent.agentId}`, org.headers), 200, 'agent').body.project_id;
    const paths: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const path = receiver.path();
      const res = expectStatus(
        await t.http.post(webhooksOf(projectId), { url: `${receiver.url}${path}`, events: ['turn.completed'] }, org.headers),
        201,
        'subscribe',
      );
      receiver.trust(path, res.body.secret);
      paths.push(path);
    }
    // A third endpoint from before the cap existed (written directly: the API refuses it now).
    const [template] = await t.dataSource.query(`SELECT * FROM webhook_endpoints WHERE project_id = $1 LIMIT 1`, [projectId]);
    const extraId = 'ffffffffffffffffffffff01';
    await t.dataSource.query(
      `INSERT INTO webhook_endpoints
       SELECT (jsonb_populate_record(e, jsonb_build_object('id', $1::text, 'url', $2::text, 'created_at', now() + interval '1 second'))).*
         FROM webhook_endpoints e WHERE id = $3`,
      [extraId, `${receiver.url}/hooks/extra`, template.id],
    );
    expectStatus(await t.http.post('/messaging/v1/messages', { user_id: 'u1', text: 'hello' }, agent.headers), 200, 'turn');

    for (const path of paths) await receiver.waitFor(path, 1, 'turn.completed');
    const rows = await t.dataSource.query(`SELECT endpoint_id FROM webhook_deliveries WHERE organization_id = $1`, [org.id]);
    expect(rows).toHaveLength(2);
    expect(rows.map((r: { endpoint_id: string }) => r.endpoint_id)).not.toContain(extraId);
  });
});
