// Webhook subscription changes across instances (docs/webhooks.md, "Subscriptions take effect"): a change is applied
// in every running instance before its answer returns, and an older snapshot never replaces a newer one.
import { jest } from '@jest/globals';
import { WebhookEndpointsRepository } from '../../src/modules/webhooks/webhook-endpoints.repository.js';
import { WebhookSubscriptions } from '../../src/modules/webhooks/webhook-subscriptions.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import type { HttpClient } from '../support/http.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
import { Receiver } from '../support/webhook-receiver.js';

/** How long this instance's loading of one organization's subscriptions is held back, when a test slows it. */
const SLOW_LOAD_MS = 1500;

describe('webhook subscriptions across instances', () => {
  let a: TestApp;
  let b: ServiceProcess;
  let receiver: Receiver;
  let org: TestOrg;
  let agent: LiveTestAgent;
  let webhooks: string;

  beforeAll(async () => {
    receiver = new Receiver();
    await receiver.start();
    a = await createTestApp();
    b = await startServiceProcess();
  });
  beforeEach(async () => {
    await a.reset();
    org = await a.factory.org();
    agent = await liveAgent(a, org, { bundle: shopBundle, runtime: 'v1' });
    const projectId = expectStatus(await a.http.get(`/management/v1/agents/${agent.agentId}`, org.headers), 200, 'agent').body.project_id;
    webhooks = `/management/v1/projects/${projectId}/webhooks`;
  });
  afterEach(() => {
    jest.restoreAllMocks();
    receiver.received.length = 0;
  });
  afterAll(async () => {
    await b?.stop();
    await a?.close();
    await receiver.close();
  });

  /**
   * Holds back this instance's (a's) loading of subscriptions: `which` null slows full reloads, 'organization' the
   * loading of one organization's (what a change notice causes). The query itself runs at once: a slowed full reload
   * returns the snapshot as it was when it started.
   */
  function slowLoads(which: 'organization' | 'all'): { queried: () => number } {
    const repository = a.app.get(WebhookEndpointsRepository);
    const original = repository.subscriptions.bind(repository);
    let queried = 0;
    jest.spyOn(repository, 'subscriptions').mockImplementation(async (organizationId) => {
      const rows = await original(organizationId);
      if ((organizationId === null) !== (which === 'all')) return rows;
      queried += 1;
      await new Promise((resolve) => setTimeout(resolve, SLOW_LOAD_MS));
      return rows;
    });
    return { queried: () => queried };
  }

  async function subscribe(on: { http: HttpClient }, events: string[]): Promise<{ id: string; path: string }> {
    const path = receiver.path();
    const res = expectStatus(await on.http.post(webhooks, { url: `${receiver.url}${path}`, events }, org.headers), 201, 'subscribe');
    receiver.trust(path, res.body.secret);
    return { id: res.body.id, path };
  }

  const turn = (on: { http: HttpClient }) =>
    on.http.post('/messaging/v1/messages', { user_id: 'u1', text: 'hello' }, agent.headers).then((res) => expectStatus(res, 200, 'turn'));

  /** The turn.completed deliveries written for the organization (the outbox, whatever their state). */
  async function written(): Promise<number> {
    const rows = await a.dataSource.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE organization_id = $1 AND event_type = 'turn.completed'`,
      [org.id],
    );
    return rows[0].n;
  }

  it('a subscription created on one instance produces the delivery of a turn on the other right after the answer', async () => {
    slowLoads('organization');
    const hook = await subscribe(b, ['turn.completed']);
    const { body } = await turn(a);
    const [delivered] = await receiver.waitFor(hook.path, 1, 'turn.completed');
    expect(delivered!.payload.data.interaction_id).toBe(body.interaction_id);
  });

  it('an update that adds a type applies on the other instance before its answer; one that removes it stops deliveries', async () => {
    const hook = await subscribe(b, ['thread.created']);
    slowLoads('organization');
    expectStatus(await b.http.patch(`${webhooks}/${hook.id}`, { events: ['thread.created', 'turn.completed'] }, org.headers), 200, 'add');
    await turn(a);
    await receiver.waitFor(hook.path, 1, 'turn.completed');

    expectStatus(await b.http.patch(`${webhooks}/${hook.id}`, { events: ['thread.created'] }, org.headers), 200, 'remove');
    await turn(a);
    expect(await written()).toBe(1);
  });

  it('a deleted subscription produces nothing for a turn on the other instance right after the answer', async () => {
    const hook = await subscribe(b, ['turn.completed']);
    await turn(a);
    await receiver.waitFor(hook.path, 1, 'turn.completed');
    slowLoads('organization');
    expectStatus(await b.http.delete(`${webhooks}/${hook.id}`, org.headers), 204, 'delete');
    await turn(a);
    expect(await written()).toBe(0); // the endpoint's deliveries went with it, and the turn wrote none
  });

  it('a full reload that read its snapshot before a change does not undo the change', async () => {
    const slowed = slowLoads('all');
    const subscriptions = a.app.get(WebhookSubscriptions) as unknown as { reloadAll(): Promise<void> };
    const staleReload = subscriptions.reloadAll();
    // The reload's query has run (before the change); its answer lands after the change was applied.
    await waitFor(() => slowed.queried() > 0, 'the reload query');
    const hook = await subscribe(b, ['turn.completed']);
    await staleReload;
    const { body } = await turn(a);
    const [delivered] = await receiver.waitFor(hook.path, 1, 'turn.completed');
    expect(delivered!.payload.data.interaction_id).toBe(body.interaction_id);
  });
});
