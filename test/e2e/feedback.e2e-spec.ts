// Feedback (issue 32, docs/evaluations.md "Feedback"): end users rate agent messages over HTTP and the WebSocket
// session (the latest rating stands), operators list them, and subscribed endpoints get a signed `message.feedback`
// webhook, verified with the `standardwebhooks` package by the receiver.
import { jest } from '@jest/globals';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, helpBundle, liveAgent, type LiveTestAgent } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { Receiver } from '../support/webhook-receiver.js';
import { connect } from '../support/ws-client.js';

// Several turns and queue runs per test on a shared, loaded machine: the outcome is asserted, never the time.
jest.setTimeout(180_000);

const SEND = '/messaging/v1/messages';

describe('feedback', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let help: LiveTestAgent;
  let foreign: LiveTestAgent;
  let receiver: Receiver;
  let hook: string;

  const ask = async (agent: LiveTestAgent, text: string, user = 'u1') =>
    expectStatus(await t.http.post(SEND, { text, user_id: user }, agent.headers), 200, 'send').body as {
      thread_id: string;
      message: { id: string };
    };
  const rate = (messageId: string, body: unknown, headers = help.headers) =>
    t.http.post(`/messaging/v1/messages/${messageId}/feedback`, body, headers);

  beforeAll(async () => {
    receiver = new Receiver();
    await receiver.start();
    t = await createTestApp({ RATE_LIMIT_MAX: '1000000', WEBHOOKS_SWEEP_INTERVAL_MS: '200' });
    org = await t.factory.org();
    other = await t.factory.org();
    help = await liveAgent(t, org, { bundle: helpBundle, runtime: 'v2' });
    foreign = await liveAgent(t, other, { bundle: helpBundle, runtime: 'v2' });
    const projectId = (await t.http.get(`/management/v1/agents/${help.agentId}`, org.headers)).body.project_id;
    hook = receiver.path();
    const endpoint = expectStatus(
      await t.http.post(
        `/management/v1/projects/${projectId}/webhooks`,
        { url: `${receiver.url}${hook}`, events: ['message.feedback'] },
        org.headers,
      ),
      201,
      'subscribe',
    ).body;
    receiver.trust(hook, endpoint.secret);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('rates over HTTP; the latest rating stands; the webhook is signed and verified', async () => {
    const turn = await ask(help, 'How many days do I have to return an item?');
    const first = await rate(turn.message.id, { rating: 'up' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      message_id: turn.message.id,
      thread_id: turn.thread_id,
      agent_id: help.agentId,
      user_id: 'u1',
      rating: 'up',
      comment: null,
      version_tag: expect.stringMatching(/^v\d+\.\d+$/),
    });
    const second = await rate(turn.message.id, { rating: 'down', comment: 'It missed the label part' });
    expect(second.body).toMatchObject({ rating: 'down', comment: 'It missed the label part' });
    const listed = await t.http.get(`/management/v1/agents/${help.agentId}/feedback`, org.headers);
    expect(listed.status).toBe(200);
    expect(listed.body.results).toEqual([expect.objectContaining({ message_id: turn.message.id, rating: 'down' })]);

    // Receivers order a thread's messages by `sequence` (delivery order across retries is not promised).
    const deliveries = [...(await receiver.waitFor(hook, 2, 'message.feedback'))].sort((x, y) => x.payload.sequence - y.payload.sequence);
    expect(deliveries.every((d) => d.verifiedWith.length === 1)).toBe(true);
    expect(deliveries.map((d) => [d.payload.data.rating, d.payload.data.previous_rating])).toEqual([
      ['up', null],
      ['down', 'up'],
    ]);
    expect(deliveries[1]!.payload).toMatchObject({
      type: 'message.feedback',
      thread_id: turn.thread_id,
      data: { message_id: turn.message.id, comment: 'It missed the label part', agent_id: help.agentId },
    });
  });

  it('rates over the WebSocket session', async () => {
    const turn = await ask(help, 'How long does standard shipping take?', 'u-ws');
    const base = t.baseUrl.replace('http', 'ws');
    const ws = connect(`${base}/messaging/v1/session`, { headers: { authorization: `Bearer ${help.token}` } });
    await ws.next((f) => f.type === 'ready');
    ws.send({ type: 'feedback', id: 'fb-1', message_id: turn.message.id, rating: 'up', comment: 'Quick answer' });
    const frame = await ws.next((f) => f.id === 'fb-1');
    expect(frame).toMatchObject({
      type: 'feedback',
      id: 'fb-1',
      feedback: { message_id: turn.message.id, rating: 'up', comment: 'Quick answer' },
    });
    ws.send({ type: 'feedback', id: 'fb-2', message_id: turn.message.id, rating: 'sideways' });
    const bad = await ws.next((f) => f.id === 'fb-2');
    expect(bad).toMatchObject({
      type: 'error',
      error: { code: 'validation_error', details: [expect.objectContaining({ field: 'rating' })] },
    });
    const theirs = await ask(foreign, 'How many days do I have to return an item?');
    ws.send({ type: 'feedback', id: 'fb-3', message_id: theirs.message.id, rating: 'down' });
    expect(await ws.next((f) => f.id === 'fb-3')).toMatchObject({ type: 'error', error: { code: 'not_found' } });
    ws.socket.close();
    const listed = await t.http.get(`/management/v1/agents/${help.agentId}/feedback?user_id=u-ws&rating=up`, org.headers);
    expect(listed.body.results.map((r: { message_id: string }) => r.message_id)).toEqual([turn.message.id]);
  });

  it("answers 404 for another tenant's message, an end-user message or an unknown id; 401 and 422 at the edge", async () => {
    const theirs = await ask(foreign, 'How many days do I have to return an item?');
    expect((await rate(theirs.message.id, { rating: 'up' })).status).toBe(404);
    // The end user's own message is not rateable: its id is the transcript's first item.
    const mine = await ask(help, 'Is there a warranty on footwear?', 'u-404');
    const transcript = await t.http.get(`/management/v1/threads/${mine.thread_id}/messages?runtime_version=2`, org.headers);
    const userItem = transcript.body.results.find((m: { role: string }) => m.role === 'user');
    expect((await rate(userItem.id, { rating: 'up' })).status).toBe(404);
    expect((await rate('b'.repeat(24), { rating: 'up' })).status).toBe(404);

    expect((await rate(mine.message.id, { rating: 'up' }, {})).status).toBe(401);
    expect((await rate(mine.message.id, { rating: 'up' }, { authorization: 'Bearer nope' })).status).toBe(401);
    const cases: Array<[unknown, string]> = [
      [{}, 'rating'],
      [{ rating: 'meh' }, 'rating'],
      [{ rating: 'up', comment: 'x'.repeat(2001) }, 'comment'],
      [{ rating: 'up', comment: 5 }, 'comment'],
      [{ rating: 'up', extra: true }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await rate(mine.message.id, body);
      expect({ field, status: res.status }).toEqual({ field, status: 422 });
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const badId = await rate('xyz', { rating: 'up' });
    expect(badId.status).toBe(422);
    expect(badId.body.error.details[0].field).toBe('messageId');

    // Operators: their own agents only; filters validated.
    expect((await t.http.get(`/management/v1/agents/${help.agentId}/feedback`, other.headers)).status).toBe(404);
    expect((await t.http.get(`/management/v1/agents/${help.agentId}/feedback`)).status).toBe(401);
    expect((await t.http.get(`/management/v1/agents/${help.agentId}/feedback?rating=sideways`, org.headers)).status).toBe(422);
    expect((await t.http.get(`/management/v1/agents/${help.agentId}/feedback?version_tag=latest`, org.headers)).status).toBe(422);
    // The management surface does not take an end user's rating: an organization key is no messaging credential.
    expect((await rate(mine.message.id, { rating: 'up' }, org.headers)).status).toBe(401);
  });
});
