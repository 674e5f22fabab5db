// Human handoff (docs/handoff.md) end to end: an end user on the WebSocket session, one on SSE with the thread's event
// stream, one behind the events webhook with an outbound webhook receiver; each asks for a human, an operator accepts,
// they talk both ways, the operator releases, and the agent's next answer has the operator's words in its history.
// Nothing is billed while a human holds the thread. Races: 20 operators accepting at once, a send meeting a takeover.
import { hashPassword } from '../../src/modules/auth/passwords.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, helpBundle, liveAgent, type LiveTestAgent } from '../support/agents.js';
import { startFakeOpenAI, type FakeServer } from '../support/fake-openai-server.js';
import { HANDOFF_MESSAGE, handoffShop, operator, threadPath, type TestOperator } from '../support/handoff.js';
import { openSse, type SseEvent } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
import { Receiver } from '../support/webhook-receiver.js';
import { connect, type Client } from '../support/ws-client.js';

const SEND = '/messaging/v1/messages';
const OPENAI = { provider: 'openai' as const, name: 'gpt-4o-mini' };

describe('human handoff', () => {
  let t: TestApp;
  let fake: FakeServer;
  let receiver: Receiver;
  let org: TestOrg;
  let agent: LiveTestAgent;
  let ana: TestOperator;
  let ben: TestOperator;
  const sockets: Client[] = [];

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    receiver = new Receiver();
    await receiver.start();
    t = await createTestApp({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', WEBHOOKS_SWEEP_INTERVAL_MS: '200' });
  });
  beforeEach(async () => {
    await t.reset();
    fake.requests.length = 0;
    org = await t.factory.org();
    agent = await liveAgent(t, org, { bundle: handoffShop({ model: OPENAI }), runtime: 'v1' });
    ana = await operator(t, org);
    ben = await operator(t, org);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.socket.close();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await receiver.close();
  });

  const wsUrl = () => `${t.baseUrl.replace(/^http/, 'ws')}/messaging/v1/session`;
  const session = async (): Promise<Client> => {
    const client = connect(wsUrl(), { headers: agent.headers });
    sockets.push(client);
    await client.next((f) => f.type === 'ready');
    return client;
  };
  const transcript = async (threadId: string) =>
    expectStatus(await t.http.get(`/management/v1/threads/${threadId}/messages?page[size]=100`, org.headers), 200, 'transcript').body
      .results;
  const turnsOf = async (threadId: string) =>
    (
      await t.dataSource.query(
        `SELECT count(*)::int AS n, COALESCE(sum(input_tokens + output_tokens), 0)::int AS tokens FROM interactions WHERE thread_id = $1`,
        [threadId],
      )
    )[0];

  it('WebSocket: ask for a human, accept, talk both ways, release; the agent then sees the operator in its history', async () => {
    const ws = await session();
    ws.send({ type: 'message', id: 'r1', text: 'I am looking for trail shoes', user_id: 'u-ws' });
    const first = await ws.request('r1');
    const threadId = first.find((f) => f.type === 'thread').thread_id as string;
    expect(first.map((f) => f.type)).toContain('message');

    const asked = await t.http.post(`/messaging/v1/threads/${threadId}/handoff`, { reason: 'refund question' }, agent.headers);
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ thread_id: threadId, control: 'pending', assignee: null, reason: 'refund question' });
    const pushed = await ws.next((f) => f.type === 'control' && f.change === 'requested');
    expect(pushed).toMatchObject({ id: null, thread_id: threadId, control: 'pending', text: HANDOFF_MESSAGE });

    const inbox = expectStatus(await t.http.get('/management/v1/inbox?control=pending', ana.headers), 200, 'inbox').body;
    expect(inbox.results.map((r: any) => [r.id, r.control, r.handoff_reason])).toEqual([[threadId, 'pending', 'refund question']]);

    const accepted = await t.http.post(threadPath(threadId, 'accept'), undefined, ana.headers);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ control: 'human', assignee: ana.userId });
    await ws.next((f) => f.type === 'control' && f.change === 'accepted' && f.assignee === ana.userId);

    const calls = fake.requests.length;
    const billed = await turnsOf(threadId);
    ws.send({ type: 'message', id: 'r2', text: 'Are you there?', thread_id: threadId, user_id: 'u-ws' });
    const held = await ws.request('r2');
    expect(held.map((f) => f.type)).toEqual(['thread', 'control', 'done']);
    expect(held[1]).toMatchObject({ thread_id: threadId, control: 'human', interaction_id: expect.stringMatching(/^[0-9a-f]{24}$/) });

    const written = await t.http.post(
      threadPath(threadId, 'messages'),
      { text: 'Hi, I am Ana from support. Refunds take 5 days.' },
      ana.headers,
    );
    expect(written.status).toBe(201);
    const operatorFrame = await ws.next((f) => f.type === 'message' && f.id === null);
    expect(operatorFrame).toMatchObject({
      thread_id: threadId,
      message: {
        id: written.body.id,
        text: 'Hi, I am Ana from support. Refunds take 5 days.',
        sender: { id: ana.userId, type: 'operator' },
      },
    });
    // Nothing ran and nothing was billed while the human held the thread.
    expect(fake.requests.length).toBe(calls);
    expect(await turnsOf(threadId)).toEqual(billed);

    const released = await t.http.post(threadPath(threadId, 'release'), undefined, ana.headers);
    expect(released.body).toMatchObject({ control: 'agent', assignee: null, released_at: expect.any(String) });
    await ws.next((f) => f.type === 'control' && f.change === 'released');

    ws.send({ type: 'message', id: 'r3', text: 'Thanks! Show me jackets', thread_id: threadId, user_id: 'u-ws' });
    const after = await ws.request('r3');
    expect(after.map((f) => f.type)).toContain('message');
    const history = JSON.stringify(fake.requests.at(-1)!.body);
    expect(history).toContain('Refunds take 5 days.');
    expect(history).toContain('Are you there?');

    const roles = (await transcript(threadId)).map((m: any) => [m.role, m.role === 'note' ? m.change : m.text]);
    expect(roles).toEqual([
      ['user', 'I am looking for trail shoes'],
      ['agent', expect.any(String)],
      ['note', 'requested'],
      ['note', 'accepted'],
      ['user', 'Are you there?'],
      ['operator', 'Hi, I am Ana from support. Refunds take 5 days.'],
      ['note', 'released'],
      ['user', 'Thanks! Show me jackets'],
      ['agent', expect.any(String)],
    ]);
    const thread = (await t.http.get(`/management/v1/threads/${threadId}`, org.headers)).body;
    expect(thread).toMatchObject({ control: 'agent', assignee: null, handoff_reason: 'refund question' });
    expect(Date.parse(thread.handoff_accepted_at)).toBeGreaterThanOrEqual(Date.parse(thread.handoff_requested_at));
    expect(Date.parse(thread.handoff_released_at)).toBeGreaterThanOrEqual(Date.parse(thread.handoff_accepted_at));
    const audit = await t.dataSource.query(`SELECT action, actor_id FROM audit_events WHERE resource_id = $1 ORDER BY created_at, id`, [
      threadId,
    ]);
    expect(audit.map((a: any) => a.action)).toEqual(['thread.accept', 'thread.operator_message', 'thread.release']);
  });

  it('SSE + thread events: a handoff rule hands over, sends answer thread/control/done, the stream carries the operator and resumes', async () => {
    const first = await openSse(t.baseUrl, '/messaging/v1/messages/stream', {
      headers: agent.headers,
      body: { text: 'I want to talk to a person', user_id: 'u-sse' },
    });
    const turn = await first.collect();
    const threadId = turn[0]!.data.thread_id as string;
    expect(turn.map((e) => e.event).slice(-3)).toEqual(['suggestions', 'control', 'done']);
    expect(turn.find((e) => e.event === 'message')!.data.message.text).toContain('Let me find someone for you.');
    expect(turn.find((e) => e.event === 'control')!.data).toMatchObject({ thread_id: threadId, control: 'pending' });

    const events = await openSse(t.baseUrl, `/messaging/v1/threads/${threadId}/events`, { method: 'GET', headers: agent.headers });
    expect(events.status).toBe(200);
    const [current] = await events.collect((e) => e.event === 'control');
    expect(current!.data).toMatchObject({ change: 'current', control: 'pending', reason: 'rule: wants_human' });

    const held = await (
      await openSse(t.baseUrl, '/messaging/v1/messages/stream', {
        headers: agent.headers,
        body: { text: 'hello?', user_id: 'u-sse', thread_id: threadId },
      })
    ).collect();
    expect(held.map((e) => e.event)).toEqual(['thread', 'control', 'done']);

    expectStatus(await t.http.post(threadPath(threadId, 'accept'), undefined, ben.headers), 200, 'accept');
    const acceptedEvents = await events.collect((e) => e.event === 'control' && e.data.change === 'accepted');
    const acceptedId = acceptedEvents.at(-1)!.id!;
    expectStatus(await t.http.post(threadPath(threadId, 'messages'), { text: 'Ben here, how can I help?' }, ben.headers), 201, 'write');
    const [message] = await events.collect((e) => e.event === 'message');
    expect(message!.data.message).toMatchObject({ text: 'Ben here, how can I help?', sender: { type: 'operator', id: ben.userId } });
    events.abort();

    // Resume after the accept: the operator's message again, then live.
    const resumed = await openSse(t.baseUrl, `/messaging/v1/threads/${threadId}/events`, {
      method: 'GET',
      headers: agent.headers,
      lastEventId: acceptedId,
    });
    const [again] = await resumed.collect((e) => e.event === 'message');
    expect(again!.id).toBe(message!.id);
    expectStatus(await t.http.post(threadPath(threadId, 'release'), undefined, ben.headers), 200, 'release');
    const [released] = await resumed.collect((e: SseEvent) => e.event === 'control');
    expect(released!.data).toMatchObject({ change: 'released', control: 'agent' });
    resumed.abort();

    const answer = await t.http.post(SEND, { text: 'ok, show me trail shoes', user_id: 'u-sse', thread_id: threadId }, agent.headers);
    expect(answer.status).toBe(200);
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('Ben here, how can I help?');
  });

  it('events webhook: held events are recorded, the outbound webhook receiver gets every handoff change, signed', async () => {
    const project = (await t.http.get(`/management/v1/agents/${agent.agentId}`, org.headers)).body.project_id;
    const path = receiver.path();
    const hook = expectStatus(
      await t.http.post(
        `/management/v1/projects/${project}/webhooks`,
        {
          url: `${receiver.url}${path}`,
          events: ['thread.handoff_requested', 'thread.handoff_accepted', 'thread.handoff_released', 'thread.message_created'],
        },
        org.headers,
      ),
      201,
      'subscribe',
    ).body;
    receiver.trust(path, hook.secret);
    const key = (await t.http.post(`/management/v1/agents/${agent.agentId}/api-keys`, {}, org.headers)).body.api_key;
    const event = async (text: string) => {
      const accepted = expectStatus(
        await t.http.post('/messaging/v1/events', { thread_id: 'crm-42', user_id: 'u-evt', text }, { 'x-agent-api-key': key }),
        202,
        'event',
      ).body;
      return waitFor(async () => {
        const status = (await t.http.get(`/messaging/v1/events/${accepted.event_id}`, { 'x-agent-api-key': key })).body;
        return status.status === 'completed' && status;
      }, 'event completed');
    };
    const first = await event('I need a human please');
    const threadId = first.thread_id as string;
    await waitFor(async () => (await t.http.get(`/management/v1/threads/${threadId}`, org.headers)).body.control === 'pending', 'pending');
    const calls = fake.requests.length;
    await event('my order never arrived');
    expect(fake.requests.length).toBe(calls);

    expectStatus(await t.http.post(threadPath(threadId, 'accept'), undefined, ana.headers), 200, 'accept');
    expectStatus(await t.http.post(threadPath(threadId, 'messages'), { text: 'Ana: I am resending it today.' }, ana.headers), 201, 'write');
    expectStatus(await t.http.post(threadPath(threadId, 'release'), undefined, ana.headers), 200, 'release');
    await event('thanks, now show me jackets');
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('I am resending it today.');

    const received = await receiver.waitFor(path, 5);
    expect(received.every((r) => r.verifiedWith.length === 1)).toBe(true);
    const sorted = received.map((r) => r.payload).sort((a, b) => a.sequence - b.sequence);
    expect(sorted.map((p) => [p.type, p.data.control, p.data.role ?? p.data.change])).toEqual([
      ['thread.handoff_requested', 'pending', 'requested'],
      ['thread.message_created', 'pending', 'user'],
      ['thread.handoff_accepted', 'human', 'accepted'],
      ['thread.message_created', 'human', 'operator'],
      ['thread.handoff_released', 'agent', 'released'],
    ]);
    expect(sorted[0].data).toMatchObject({ thread_id: threadId, reason: 'rule: wants_human', assignee: null });
    expect(sorted[2].data).toMatchObject({ assignee: ana.userId, previous: 'pending' });
  });

  it('20 operators accept one waiting thread at once: exactly one wins, the others get 409 handoff_conflict', async () => {
    const threadId = (await t.http.post(SEND, { text: 'hi', user_id: 'u-race' }, agent.headers)).body.thread_id;
    expectStatus(await t.http.post(`/messaging/v1/threads/${threadId}/handoff`, {}, agent.headers), 200, 'handoff');
    const shared = { password: 'operators share this one', hash: await hashPassword('operators share this one') };
    const more: TestOperator[] = [];
    for (let i = 0; i < 18; i += 1) more.push(await operator(t, org, shared));
    const operators = [ana, ben, ...more];
    const answers = await Promise.all(operators.map((o) => t.http.post(threadPath(threadId, 'accept'), undefined, o.headers)));
    const winners = answers.filter((a) => a.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.error.code)).toEqual(Array(19).fill('handoff_conflict'));
    const winner = operators[answers.indexOf(winners[0]!)]!;
    const thread = (await t.http.get(`/management/v1/threads/${threadId}`, org.headers)).body;
    expect(thread).toMatchObject({ control: 'human', assignee: winner.userId });
    const notes = (await transcript(threadId)).filter((m: any) => m.role === 'note').map((m: any) => m.change);
    expect(notes).toEqual(['requested', 'accepted']);
    const audited = await t.dataSource.query(`SELECT actor_id FROM audit_events WHERE action = 'thread.accept' AND resource_id = $1`, [
      threadId,
    ]);
    expect(audited).toEqual([{ actor_id: winner.userId }]);
  }, 120_000);

  it('a send and a takeover at the same instant: the send is answered by the agent or recorded for the operator, exactly once', async () => {
    for (let round = 0; round < 6; round += 1) {
      const threadId = (await t.http.post(SEND, { text: 'hi', user_id: `u-tk-${round}` }, agent.headers)).body.thread_id;
      const text = `question ${round}`;
      const [send, takeover] = await Promise.all([
        t.http.post(SEND, { text, user_id: `u-tk-${round}`, thread_id: threadId }, agent.headers),
        t.http.post(threadPath(threadId, 'takeover'), undefined, ana.headers),
      ]);
      expect(takeover.status).toBe(200);
      expect([200, 202]).toContain(send.status);
      const messages = await transcript(threadId);
      const asked = messages.findIndex((m: any) => m.role === 'user' && m.text === text);
      expect(messages.filter((m: any) => m.text === text)).toHaveLength(1);
      if (send.status === 200) {
        // Admitted before the takeover: the agent's reply is recorded and delivered (docs/handoff.md).
        expect(messages.some((m: any) => m.role === 'agent' && m.id === send.body.message.id)).toBe(true);
      } else {
        expect(send.body).toEqual({ thread_id: threadId, interaction_id: expect.any(String), control: 'human' });
        expect(messages.slice(asked + 1).some((m: any) => m.role === 'agent')).toBe(false);
      }
    }
  });

  it('the request times out back to the agent once, telling the end user; the inbox lists oldest first and streams changes', async () => {
    const timed = await liveAgent(t, org, {
      bundle: handoffShop({ handoff: { timeout_s: 1, timeout_message: 'Nobody is free, the bot is back.' } }),
      runtime: 'v1',
    });
    const stream = await openSse(t.baseUrl, '/management/v1/inbox/stream', { method: 'GET', headers: ana.headers });
    expect(stream.status).toBe(200);
    const older = (await t.http.post(SEND, { text: 'hi', user_id: 'u-old' }, agent.headers)).body.thread_id;
    expectStatus(await t.http.post(`/messaging/v1/threads/${older}/handoff`, {}, agent.headers), 200, 'older handoff');
    const threadId = (await t.http.post(SEND, { text: 'hi', user_id: 'u-timeout' }, timed.headers)).body.thread_id;
    expectStatus(await t.http.post(`/messaging/v1/threads/${threadId}/handoff`, {}, timed.headers), 200, 'handoff');

    const listed = (await t.http.get('/management/v1/inbox', ana.headers)).body.results.map((r: any) => r.id);
    expect(listed.slice(0, 2)).toEqual([older, threadId]);
    const changes = await stream.collect((e, all) => all.filter((x) => x.event === 'control').length >= 2);
    expect(changes.map((e) => [e.data.thread_id, e.data.change])).toEqual([
      [older, 'requested'],
      [threadId, 'requested'],
    ]);

    await waitFor(async () => (await t.http.get(`/management/v1/threads/${threadId}`, org.headers)).body.control === 'agent', 'timed out');
    const [timeout] = await stream.collect((e) => e.event === 'control' && e.data.change === 'timed_out');
    expect(timeout!.data).toMatchObject({ thread_id: threadId, control: 'agent', text: 'Nobody is free, the bot is back.' });
    stream.abort();
    // Resumed after the first change: the rest again, in order.
    const resumed = await openSse(t.baseUrl, '/management/v1/inbox/stream', {
      method: 'GET',
      headers: ana.headers,
      lastEventId: changes[0]!.id,
    });
    const replayed = await resumed.collect((e) => e.event === 'control' && e.data.change === 'timed_out');
    expect(replayed.map((e) => [e.data.thread_id, e.data.change])).toEqual([
      [threadId, 'requested'],
      [threadId, 'timed_out'],
    ]);
    resumed.abort();
    const notes = (await transcript(threadId)).filter((m: any) => m.role === 'note');
    expect(notes.map((n: any) => [n.change, n.text])).toEqual([
      ['requested', HANDOFF_MESSAGE],
      ['timed_out', 'Nobody is free, the bot is back.'],
    ]);
    expect((await t.http.post(SEND, { text: 'still there?', user_id: 'u-timeout', thread_id: threadId }, timed.headers)).status).toBe(200);
    expect((await t.http.get('/management/v1/inbox', ana.headers)).body.results.map((r: any) => r.id)).toEqual([older]);

    expectStatus(await t.http.post(threadPath(older, 'accept'), undefined, ben.headers), 200, 'accept');
    const mine = (await t.http.get('/management/v1/inbox?assignee=me', ben.headers)).body.results.map((r: any) => r.id);
    expect(mine).toEqual([older]);
    expect((await t.http.get('/management/v1/inbox?assignee=me', ana.headers)).body.results).toEqual([]);
  });

  it('a v2 decline hands over under on_decline "handoff"; without handoff enabled, asking for a human is 409 handoff_disabled', async () => {
    const kb = await liveAgent(t, org, {
      bundle: { ...helpBundle, knowledge_settings: { on_decline: 'handoff' }, handoff: { enabled: true } },
      runtime: 'v2',
    });
    const declined = await t.http.post(SEND, { text: 'Can I pay with cryptocurrency on Mars?', user_id: 'u-kb' }, kb.headers);
    expect(declined.status).toBe(200);
    expect(declined.body.control).toBe('pending');
    const thread = (await t.http.get(`/management/v1/threads/${declined.body.thread_id}?runtime_version=2`, org.headers)).body;
    expect(thread).toMatchObject({ control: 'pending', handoff_reason: 'decline' });
    const answered = await t.http.post(SEND, { text: 'How do returns work?', user_id: 'u-kb2' }, kb.headers);
    expect(answered.body.control).toBeUndefined();

    const plain = await liveAgent(t, org, { bundle: helpBundle, runtime: 'v2' });
    const threadId = (await t.http.post(SEND, { text: 'How do returns work?', user_id: 'u-plain' }, plain.headers)).body.thread_id;
    const refused = await t.http.post(`/messaging/v1/threads/${threadId}/handoff`, {}, plain.headers);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('handoff_disabled');
    expect((await t.http.get(`/management/v1/threads/${threadId}?runtime_version=2`, org.headers)).body.control).toBe('agent');
  });
});
