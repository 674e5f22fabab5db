// Hostile input on the handoff routes (docs/handoff.md, "Operators and errors"): other tenants' and other agents'
// threads are 404, an operator who does not hold the thread is 409, bad input is 422 naming the field, the wrong
// credential is 401 — and none of it changes the thread.
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, type LiveTestAgent } from '../support/agents.js';
import { handoffShop, operator, threadPath, type TestOperator } from '../support/handoff.js';
import { openSse } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('hostile input: human handoff', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let agent: LiveTestAgent;
  let sibling: LiveTestAgent;
  let stranger: LiveTestAgent;
  let ana: TestOperator;
  let ben: TestOperator;
  let eve: TestOperator;
  let threadId: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.reset();
    org = await t.factory.org();
    other = await t.factory.org();
    agent = await liveAgent(t, org, { bundle: handoffShop(), runtime: 'v1' });
    sibling = await liveAgent(t, org, { bundle: handoffShop(), runtime: 'v1' });
    stranger = await liveAgent(t, other, { bundle: handoffShop(), runtime: 'v1' });
    ana = await operator(t, org);
    ben = await operator(t, org);
    eve = await operator(t, other);
    threadId = (await t.http.post('/messaging/v1/messages', { text: 'hi', user_id: 'u-h' }, agent.headers)).body.thread_id;
    expectStatus(await t.http.post(`/messaging/v1/threads/${threadId}/handoff`, { reason: 'help' }, agent.headers), 200, 'handoff');
    expectStatus(await t.http.post(threadPath(threadId, 'accept'), undefined, ana.headers), 200, 'accept');
  });
  afterAll(() => t.close());

  /** The thread's state and its items: what a refused request must leave as it was. */
  const snapshot = async () => ({
    thread: await t.dataSource.query(
      `SELECT control, assignee_id, handoff_reason, handoff_requested_at, handoff_accepted_at, handoff_released_at, last_item_seq FROM threads WHERE id = $1`,
      [threadId],
    ),
    items: (await t.dataSource.query(`SELECT count(*)::int AS n FROM thread_items WHERE thread_id = $1`, [threadId]))[0].n,
    audit: (await t.dataSource.query(`SELECT count(*)::int AS n FROM audit_events WHERE resource_id = $1`, [threadId]))[0].n,
  });

  const operatorRoutes = (id: string) => [
    { path: threadPath(id, 'takeover'), body: {} },
    { path: threadPath(id, 'accept'), body: undefined },
    { path: threadPath(id, 'messages'), body: { text: 'hello' } },
    { path: threadPath(id, 'release'), body: undefined },
  ];

  it("another organization's operator gets 404 on every operator route, and the thread stays as it was", async () => {
    const before = await snapshot();
    for (const route of operatorRoutes(threadId)) {
      const res = await t.http.post(route.path, route.body, eve.headers);
      expect([route.path, res.status, res.body.error?.code]).toEqual([route.path, 404, 'not_found']);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("another organization's or another agent's end user gets 404 on the handoff route and the thread's events", async () => {
    const before = await snapshot();
    for (const who of [stranger, sibling]) {
      const res = await t.http.post(`/messaging/v1/threads/${threadId}/handoff`, {}, who.headers);
      expect(res.status).toBe(404);
      const events = await openSse(t.baseUrl, `/messaging/v1/threads/${threadId}/events`, { method: 'GET', headers: who.headers });
      expect(events.status).toBe(404);
      expect(events.body.error.code).toBe('not_found');
      const send = await t.http.post('/messaging/v1/messages', { text: 'x', user_id: 'u', thread_id: threadId }, who.headers);
      expect(send.status).toBe(404);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('an operator who does not hold the thread is 409 handoff_conflict on write, release, accept and takeover; nothing changes', async () => {
    const before = await snapshot();
    for (const route of operatorRoutes(threadId)) {
      const res = await t.http.post(route.path, route.body, ben.headers);
      expect([route.path, res.status, res.body.error?.code]).toEqual([route.path, 409, 'handoff_conflict']);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('operator routes refuse the organization key and missing credentials (401); the inbox refuses assignee=me without a user (422)', async () => {
    const before = await snapshot();
    for (const route of operatorRoutes(threadId)) {
      expect((await t.http.post(route.path, route.body, org.headers)).status).toBe(401);
      expect((await t.http.post(route.path, route.body, {})).status).toBe(401);
      expect((await t.http.post(route.path, route.body, agent.headers)).status).toBe(401);
    }
    expect((await t.http.get('/management/v1/inbox', org.headers)).status).toBe(200);
    const me = await t.http.get('/management/v1/inbox?assignee=me', org.headers);
    expect(me.status).toBe(422);
    expect(me.body.error.details.map((d: any) => d.field)).toEqual(['assignee']);
    expect(await snapshot()).toEqual(before);
  });

  it('bad input is 422 naming the field, before anything changes', async () => {
    const before = await snapshot();
    const cases: Array<[string, string, unknown, Record<string, string>, string]> = [
      ['POST', '/management/v1/threads/not-an-id/accept', undefined, ana.headers, 'threadId'],
      ['POST', threadPath(threadId, 'messages'), { text: '' }, ana.headers, 'text'],
      ['POST', threadPath(threadId, 'messages'), { text: 'x'.repeat(40_001) }, ana.headers, 'text'],
      ['POST', threadPath(threadId, 'messages'), {}, ana.headers, 'text'],
      ['POST', threadPath(threadId, 'messages'), { text: 'hi', assignee: 'x' }, ana.headers, 'assignee'],
      ['POST', threadPath(threadId, 'takeover'), { reason: 'r'.repeat(501) }, ana.headers, 'reason'],
      ['POST', `/messaging/v1/threads/${threadId}/handoff`, { reason: 42 }, agent.headers, 'reason'],
      ['POST', '/messaging/v1/threads/zz/handoff', {}, agent.headers, 'threadId'],
      ['GET', '/management/v1/inbox?control=agent', undefined, ana.headers, 'control'],
      ['GET', '/management/v1/inbox?page[size]=0', undefined, ana.headers, 'page[size]'],
      ['GET', '/management/v1/inbox?sort_by=created_at', undefined, ana.headers, 'sort_by'],
    ];
    for (const [method, path, body, headers, field] of cases) {
      const res = await t.http.request(method, path, { body, headers });
      expect([path, field, res.status]).toEqual([path, field, 422]);
      expect(res.body.error.details.map((d: any) => d.field)).toContain(field);
    }
    const stream = await openSse(t.baseUrl, `/messaging/v1/threads/${threadId}/events`, {
      method: 'GET',
      headers: agent.headers,
      lastEventId: 'not-an-event-id',
    });
    expect(stream.status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });
});
