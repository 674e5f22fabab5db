import { WebSocket } from 'ws';
import {
  ApiError,
  managementClient,
  messagingClient,
  MessagingSession,
  PublishableKeyTokens,
  streamMessage,
  unwrap,
  type StreamEvent,
} from '../../clients/typescript/src/index.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The typed client (clients/typescript) against the real app: the whole first-use journey, through the client only. */
describe('typed client journey', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  /** project → agent → version from template → publish → publishable key, as an operator would. */
  async function liveShop() {
    const org = await t.factory.org();
    const api = managementClient({ baseUrl: t.baseUrl, orgApiKey: org.apiKey });
    const project = unwrap(await api.POST('/management/v1/projects', { body: { name: 'Storefront' } }));
    const agent = unwrap(
      await api.POST('/management/v1/projects/{projectId}/agents', {
        params: { path: { projectId: project.id } },
        body: { name: 'Shop', runtime: 'v1' },
      }),
    );
    const path = { agentId: agent.id };
    const version = unwrap(
      await api.POST('/management/v1/agents/{agentId}/versions', {
        params: { path },
        body: { source: 'template', template: 'shopping-assistant' },
      }),
    );
    const published = unwrap(
      await api.POST('/management/v1/agents/{agentId}/versions/{versionId}/publish', {
        params: { path: { ...path, versionId: version.id } },
      }),
    );
    expect(published.status).toBe('published');
    const key = unwrap(await api.POST('/management/v1/agents/{agentId}/publishable-keys', { params: { path }, body: {} }));
    return { api, project, agent, publishableKey: key.publishable_key };
  }

  it('runs project → agent → version → publish → key → token → send → stream → threads → usage', async () => {
    const { api, project, agent, publishableKey } = await liveShop();
    const messaging = messagingClient({ baseUrl: t.baseUrl, publishableKey });
    expect(await messaging.tokens.details()).toMatchObject({ agent_id: agent.id, token_type: 'Bearer' });

    const sent = unwrap(
      await messaging.POST('/messaging/v1/messages', { body: { text: 'Do you have trail running shoes?', user_id: 'client-user' } }),
    );
    // The send's typed answer is the reply (200) or, while an operator holds the thread, the held message (202).
    if (!('message' in sent)) throw new Error('a new thread is under agent control: the send is answered');
    expect(sent.message.cards.length).toBeGreaterThan(0);
    expect(sent.message.cards[0]!.json_data.entity).toMatchObject({ name: expect.any(String) });

    const events: StreamEvent[] = [];
    for await (const event of streamMessage(
      { baseUrl: t.baseUrl, tokens: messaging.tokens },
      { text: 'Any hiking boots?', user_id: 'client-user', thread_id: sent.thread_id },
    )) {
      events.push(event);
    }
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('thread');
    expect(names.slice(-2)).toEqual(['suggestions', 'done']);
    const streamedText = events.flatMap((e) => (e.event === 'delta' ? [e.data.text] : [])).join('');
    const final = events.find((e) => e.event === 'message');
    expect(final?.event === 'message' && final.data.message.text).toBe(streamedText);

    const threads = unwrap(await api.GET('/management/v1/threads', { params: { query: { project_id: project.id } } }));
    expect(threads.results.map((th) => th.id)).toEqual([sent.thread_id]);
    const transcript = unwrap(
      await api.GET('/management/v1/threads/{threadId}/messages', { params: { path: { threadId: sent.thread_id } } }),
    );
    expect(transcript.results.map((m) => m.text)).toEqual(
      expect.arrayContaining(['Do you have trail running shoes?', 'Any hiking boots?', streamedText]),
    );

    const usage = unwrap(await api.GET('/management/v1/agents/{agentId}/usage', { params: { path: { agentId: agent.id } } }));
    expect(usage.interaction_count).toBe(2);
    expect(usage.total_tokens).toBeGreaterThan(0);
  });

  it('resumes a dropped stream with Last-Event-ID: every event once, one turn', async () => {
    const { api, agent, publishableKey } = await liveShop();
    const tokens = new PublishableKeyTokens({ baseUrl: t.baseUrl, publishableKey });
    // The first connection breaks right after its first event; the client must reconnect with Last-Event-ID.
    const requests: Headers[] = [];
    const flaky: typeof fetch = async (input, init) => {
      requests.push(new Headers(init?.headers));
      const response = await fetch(input, init);
      return requests.length === 1 ? new Response(cutAfterFirstEvent(response.body!), response) : response;
    };
    const events: StreamEvent[] = [];
    for await (const event of streamMessage(
      { baseUrl: t.baseUrl, tokens, fetch: flaky },
      { text: 'Do you have trail running shoes?', user_id: 'u' },
    )) {
      events.push(event);
    }
    expect(requests).toHaveLength(2);
    expect(requests[1]!.get('last-event-id')).toBe(events[0]!.id);
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.map((id) => Number(id.split(':')[1]))).toEqual(ids.map((_, i) => i + 1));
    expect(events.at(-1)!.event).toBe('done');
    const usage = unwrap(await api.GET('/management/v1/agents/{agentId}/usage', { params: { path: { agentId: agent.id } } }));
    expect(usage.interaction_count).toBe(1);
  });

  it('talks over the WebSocket session', async () => {
    const { publishableKey } = await liveShop();
    const tokens = new PublishableKeyTokens({ baseUrl: t.baseUrl, publishableKey });
    const session = await MessagingSession.open({ baseUrl: t.baseUrl, tokens, connect: (url, protocols) => new WebSocket(url, protocols) });
    try {
      expect(session.sessionId).toEqual(expect.any(String));
      const frames = [];
      for await (const frame of session.send({ text: 'Do you have trail running shoes?', user_id: 'ws-user' })) frames.push(frame);
      expect(frames[0]!.type).toBe('thread');
      expect(frames.at(-1)!.type).toBe('done');
      expect(frames.some((f) => f.type === 'card')).toBe(true);
      await expect(async () => {
        for await (const frame of session.send({ text: '', user_id: '' })) void frame;
      }).rejects.toMatchObject({
        code: 'validation_error',
        details: expect.arrayContaining([expect.objectContaining({ field: 'user_id' })]),
      });
    } finally {
      session.close();
    }
  });

  it('refreshes the token before expires_in runs out', async () => {
    const { publishableKey } = await liveShop();
    let clock = Date.now();
    const exchanges: number[] = [];
    const counting: typeof fetch = (input, init) => {
      if (String(input).endsWith('/auth/token')) exchanges.push(clock);
      return fetch(input, init);
    };
    const tokens = new PublishableKeyTokens({
      baseUrl: t.baseUrl,
      publishableKey,
      fetch: counting,
      refreshMarginSeconds: 60,
      now: () => clock,
    });
    const { expires_in } = await tokens.details();
    await tokens.accessToken();
    expect(exchanges).toHaveLength(1);
    clock += (expires_in - 61) * 1000;
    await tokens.accessToken();
    expect(exchanges).toHaveLength(1);
    clock += 2000;
    await tokens.accessToken();
    expect(exchanges).toHaveLength(2);
  });

  it('throws typed errors from the envelope', async () => {
    const org = await t.factory.org();
    const api = managementClient({ baseUrl: t.baseUrl, orgApiKey: org.apiKey });
    const missing = '0123456789abcdef01234567';
    const notFound = await api.GET('/management/v1/projects/{projectId}', { params: { path: { projectId: missing } } });
    expect(() => unwrap(notFound)).toThrow(ApiError);
    expect(catchError(() => unwrap(notFound))).toMatchObject({ status: 404, code: 'not_found', requestId: expect.any(String) });
    const invalid = await api.POST('/management/v1/projects', { body: { name: '' } });
    expect(catchError(() => unwrap(invalid))).toMatchObject({
      status: 422,
      code: 'validation_error',
      details: [expect.objectContaining({ field: 'name' })],
    });
    const badKey = new PublishableKeyTokens({ baseUrl: t.baseUrl, publishableKey: 'pk_not-a-key' });
    await expect(badKey.accessToken()).rejects.toMatchObject({ status: 400, code: 'invalid_grant', message: 'invalid_publishable_key' });
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

/** A body that passes the stream through up to its first complete event, then fails like a reset connection. */
function cutAfterFirstEvent(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let seen = '';
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) return controller.close();
      const text = new TextDecoder().decode(value);
      const end = (seen + text).indexOf('\n\n');
      if (end < 0) {
        seen += text;
        return controller.enqueue(value);
      }
      controller.enqueue(new TextEncoder().encode(text.slice(0, end - seen.length + 2)));
      await reader.cancel();
      controller.error(new TypeError('terminated'));
    },
  });
}
