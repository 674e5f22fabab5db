import { randomBytes } from 'node:crypto';
import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import { ReplayBufferRepository } from '../../src/modules/streaming/replay-buffer.repository.js';
import { liveAgent, shopBundle } from '../support/agents.js';
import { startFakeOpenAI, type FakeServer } from '../support/fake-openai-server.js';
import { openSse } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const STREAM = '/messaging/v1/messages/stream';

const withOpenAI = (bundle: Bundle): Bundle => ({
  ...bundle,
  model: { provider: 'openai', name: 'gpt-4o-mini', temperature: 0, max_output_tokens: 300 },
});

/**
 * Orphaned turns (docs/streaming.md): the process running a streamed turn keeps a heartbeat in Redis; a resume of an
 * unfinished turn whose heartbeat is gone (its process died) ends with an `error` event instead of waiting for
 * STREAM_RESUME_STALL_MS, and the client sends the message again. A short heartbeat here keeps the test quick; the
 * stall timeout stays at its 5-minute default, so only the heartbeat can end the orphan's resume.
 */
describe('SSE resume of a turn whose instance died', () => {
  let fake: FakeServer;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp({
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'test-key',
      PROVIDER_TIMEOUT_MS: '30000',
      STREAM_HEARTBEAT_INTERVAL_MS: '100',
      STREAM_HEARTBEAT_TTL_MS: '2000',
    });
  });
  beforeEach(async () => {
    await t.reset();
    fake.behave({});
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('ends the resume with an internal_error event once the owner’s heartbeat is gone; sending again works', async () => {
    const org = await t.factory.org();
    const agent = await liveAgent(t, org, { bundle: withOpenAI(shopBundle), runtime: 'v1' });
    // What a process killed mid-turn leaves behind: the owner and some events, no terminal event, and a heartbeat
    // nobody refreshes any more.
    const interactionId = randomBytes(12).toString('hex');
    const threadId = randomBytes(12).toString('hex');
    const writer = t.app.get(ReplayBufferRepository).open(interactionId, { organizationId: org.id, agentId: agent.agentId });
    writer.append({ event: 'thread', data: { thread_id: threadId, interaction_id: interactionId } });
    writer.append({ event: 'delta', data: { text: 'Trail shoes' } });
    await writer.stored;
    writer.close();

    const resumed = await openSse(t.baseUrl, STREAM, {
      headers: { ...agent.headers, 'x-request-id': 'orphan-resume' },
      lastEventId: `${interactionId}:1`,
    });
    expect(resumed.status).toBe(200);
    const events = await resumed.collect();
    expect(events.map((e) => e.event)).toEqual(['delta', 'error']);
    expect(events[0]).toEqual({ id: `${interactionId}:2`, event: 'delta', data: { text: 'Trail shoes' } });
    // The error has no id: resuming after it is not possible, the client sends the message again.
    expect(events[1]!.id ?? '').toBe('');
    expect(events[1]!.data).toEqual({
      error: { code: 'internal_error', message: expect.stringMatching(/send the message again/), request_id: 'orphan-resume' },
    });

    // The retry: the same send as a new request runs a new turn to its end.
    const retried = await (
      await openSse(t.baseUrl, STREAM, { headers: agent.headers, body: { text: 'I am looking for trail shoes', user_id: 'u1' } })
    ).collect();
    expect(retried.at(-1)!.event).toBe('done');
  });

  it('does not cut the resume of a live turn that outlasts several heartbeat lifetimes', async () => {
    const org = await t.factory.org();
    const agent = await liveAgent(t, org, { bundle: withOpenAI(shopBundle), runtime: 'v1' });
    const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    fake.behave({ chunkDelayMs: 50, reply: () => words });
    const first = await openSse(t.baseUrl, STREAM, {
      headers: agent.headers,
      body: { text: 'I am looking for trail shoes', user_id: 'u1' },
    });
    const before = await first.collect((_, all) => all.length === 2);
    first.abort();
    const resumed = await openSse(t.baseUrl, STREAM, { headers: agent.headers, lastEventId: before.at(-1)!.id });
    expect(resumed.status).toBe(200);
    const after = await resumed.collect();
    expect(after.filter((e) => e.event === 'error')).toEqual([]);
    expect(after.at(-1)!.event).toBe('done');
    const all = [...before, ...after];
    expect(all.map((e) => Number(e.id!.split(':')[1]))).toEqual(all.map((_, i) => i + 1));
  });
});
