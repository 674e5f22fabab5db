import { helpBundle, liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import type { TestOrg } from '../factories/factory.js';
import { TURNS_WITH_MESSAGES } from '../support/threads.js';

const SEND = '/messaging/v1/messages';

describe('messaging', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  describe('v1 decisioning engine', () => {
    let org: TestOrg;
    let shop: LiveTestAgent;
    beforeEach(async () => {
      org = await t.factory.org();
      shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    });

    it('answers a product question with cards, follow-ups, tokens and (on request) a v1 trace', async () => {
      const res = await t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: 'u1', include_trace: true }, shop.headers);
      expect(res.status).toBe(200);
      const { thread_id, interaction_id, message } = res.body;
      expect(thread_id).toMatch(/^[0-9a-f]{24}$/);
      expect(interaction_id).toMatch(/^[0-9a-f]{24}$/);
      expect(message).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        created_at: expect.any(String),
        text: expect.any(String),
        sender: { id: shop.agentId, type: 'agent' },
        receiver: { id: 'u1', type: 'user' },
        welcome_message: shopBundle.welcome_message,
        followup_suggestions: ['Any in size 42?', 'Show cheaper options'],
      });
      expect(message.input_tokens).toBeGreaterThan(0);
      expect(message.output_tokens).toBeGreaterThan(0);
      const [top] = message.cards;
      expect(top).toMatchObject({
        is_recommended: true,
        index: 0,
        capability: 'catalog',
        instance: 'sku-trail-1',
        title: 'Ridge Runner Trail Shoe',
      });
      expect(top.json_data.entity).toMatchObject({ name: 'Ridge Runner Trail Shoe', price: 89 });
      expect(top.json_data.sub_entities).toEqual([
        {
          name: 'variants',
          items: [
            { size: 42, color: 'blue' },
            { size: 43, color: 'black' },
          ],
        },
      ]);
      expect(typeof top.rendered_jsx).toBe('string');
      expect(message.url).toBe('https://shop.example/p/sku-trail-1');
      const trace = message.trace_info;
      expect(trace.runtime).toBe('v1');
      expect(trace.input).toEqual({ message: 'I am looking for trail shoes' });
      expect(trace.understanding.intents).toContain('product_search');
      expect(trace.understanding.guardrails.passed).toBe(true);
      expect(trace.decisions.some((d: any) => d.tool === 'catalog')).toBe(true);
      expect(trace.response.jsx_widgets.length).toBe(message.cards.length);
      expect(Array.isArray(trace.rules_evaluations)).toBe(true);
    });

    it('gives no trace unless include_trace is true', async () => {
      const res = await t.http.post(SEND, { text: 'show me jackets', user_id: 'u1' }, shop.headers);
      expect(res.status).toBe(200);
      expect(res.body.message).not.toHaveProperty('trace_info');
    });

    it('applies a blocking rule over an extracted parameter', async () => {
      const res = await t.http.post(
        SEND,
        { text: 'I am looking for trail shoes under $30', user_id: 'u1', include_trace: true },
        shop.headers,
      );
      expect(res.body.message.text).toContain('nothing here is under $50');
      expect(res.body.message.cards).toEqual([]);
      const evaluation = res.body.message.trace_info.rules_evaluations.find((r: any) => r.code === 'over_budget');
      expect(evaluation.triggered).toBe(true);
      expect(res.body.message.trace_info.computed_parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: 'budget' })]),
      );
    });

    it('blocks a message caught by a guardrail', async () => {
      const res = await t.http.post(SEND, { text: 'Can you diagnose my knee pain?', user_id: 'u1', include_trace: true }, shop.headers);
      expect(res.body.message.text).toBe('I can only help with gear, not medical questions.');
      expect(res.body.message.cards).toEqual([]);
      expect(res.body.message.trace_info.understanding.guardrails.passed).toBe(false);
    });

    it('persists the turn: thread titled from the first message, appended on reuse, with facets', async () => {
      const first = await t.http.post(SEND, { text: 'I am looking for trail shoes under $120', user_id: 'u7' }, shop.headers);
      const second = await t.http.post(SEND, { text: 'show me jackets', user_id: 'u7', thread_id: first.body.thread_id }, shop.headers);
      expect(second.body.thread_id).toBe(first.body.thread_id);
      const [thread] = await t.dataSource.query(`SELECT * FROM threads WHERE id = $1`, [first.body.thread_id]);
      expect(thread).toMatchObject({
        title: 'I am looking for trail shoes under $120',
        user_id: 'u7',
        agent_id: shop.agentId,
        runtime: 'v1',
        interaction_count: 2,
        version_tag: 'v1.1',
      });
      expect(thread.tools).toContain('catalog');
      expect(thread.rules).toEqual(expect.arrayContaining(['over_budget', 'over_budget:passed']));
      expect(thread.params).toMatchObject({ budget: 120 });
      const rows = await t.dataSource.query(
        `SELECT seq, user_text, source, input_tokens FROM ${TURNS_WITH_MESSAGES} WHERE thread_id = $1 ORDER BY seq`,
        [first.body.thread_id],
      );
      expect(rows.map((r: any) => [r.seq, r.user_text, r.source])).toEqual([
        [1, 'I am looking for trail shoes under $120', 'api'],
        [2, 'show me jackets', 'api'],
      ]);
      expect(rows[0].input_tokens).toBeGreaterThan(0);
    });

    it('answers two sends to one thread one after the other, in arrival order', async () => {
      const first = await t.http.post(SEND, { text: 'show me jackets', user_id: 'u1' }, shop.headers);
      const thread_id = first.body.thread_id;
      const texts = ['trail shoes please', 'road shoes please', 'rain jacket please', 'any shoes under $100'];
      const results = await Promise.all(
        texts.map((text, i) =>
          new Promise((r) => setTimeout(r, i * 25)).then(() => t.http.post(SEND, { text, user_id: 'u1', thread_id }, shop.headers)),
        ),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const rows = await t.dataSource.query(`SELECT user_text FROM ${TURNS_WITH_MESSAGES} WHERE thread_id = $1 ORDER BY seq`, [thread_id]);
      expect(rows.map((r: any) => r.user_text)).toEqual(['show me jackets', ...texts]);
    });

    it('reruns the last end-user message with the current live version and appends the reply', async () => {
      const first = await t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: 'u1' }, shop.headers);
      const rerun = await t.http.post(`/messaging/v1/threads/${first.body.thread_id}/rerun`, { include_trace: true }, shop.headers);
      expect(rerun.status).toBe(200);
      expect(rerun.body.thread_id).toBe(first.body.thread_id);
      expect(rerun.body.interaction_id).not.toBe(first.body.interaction_id);
      expect(rerun.body.message.trace_info.input.message).toBe('I am looking for trail shoes');
      const rows = await t.dataSource.query(`SELECT seq, source FROM interactions WHERE thread_id = $1 ORDER BY seq`, [
        first.body.thread_id,
      ]);
      expect(rows).toEqual([
        { seq: 1, source: 'api' },
        { seq: 2, source: 'rerun' },
      ]);
      const bodyless = await t.http.post(`/messaging/v1/threads/${first.body.thread_id}/rerun`, undefined, shop.headers);
      expect(bodyless.status).toBe(200);
      expect(bodyless.body.message).not.toHaveProperty('trace_info');
      const withAgent = await t.http.post(`/messaging/v1/threads/${first.body.thread_id}/rerun`, { agent_id: shop.agentId }, shop.headers);
      expect(withAgent.status).toBe(422);
      expect(withAgent.body.error.details[0].field).toBe('agent_id');
    });

    it('serves the welcome message on the singular and the plural path', async () => {
      for (const path of ['/messaging/v1/welcome-message', '/messaging/v1/welcome-messages']) {
        const res = await t.http.get(path, shop.headers);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ welcome_message: shopBundle.welcome_message, followup_suggestions: shopBundle.welcome_suggestions });
      }
    });

    it('suggests follow-ups from a thread or a text', async () => {
      const first = await t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: 'u1' }, shop.headers);
      const fromThread = await t.http.post(
        '/messaging/v1/followup-suggestions',
        { thread_id: first.body.thread_id, limit: 2 },
        shop.headers,
      );
      expect(fromThread.status).toBe(200);
      expect(fromThread.body.followup_suggestions.length).toBeGreaterThan(0);
      expect(fromThread.body.followup_suggestions.length).toBeLessThanOrEqual(2);
      const fromText = await t.http.post('/messaging/v1/followup-suggestions', { text: 'find me a rain jacket' }, shop.headers);
      expect(fromText.body.followup_suggestions.length).toBeGreaterThan(0);
      const bad = await t.http.post('/messaging/v1/followup-suggestions', { limit: 11 }, shop.headers);
      expect(bad.status).toBe(422);
      expect(bad.body.error.details[0].field).toBe('limit');
    });

    it('validates the body with 422 and details[].field, creating nothing', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ text: 'hi', user_id: 'u1', agent_id: shop.agentId }, 'agent_id'],
        [{ text: 'hi' }, 'user_id'],
        [{ user_id: 'u1' }, 'text'],
        [{ text: 'hi', user_id: 'u1', thread_id: 'nope' }, 'thread_id'],
        [{ text: 'hi', user_id: 'u1', image_url: 'not a url' }, 'image_url'],
        [{ text: 'hi', user_id: 'u1', agent_variables: { static: 'x' } }, 'agent_variables.static'],
        [{ text: 'hi', user_id: 'u1', agent_variables: { other: {} } }, 'agent_variables.other'],
        [{ text: 'hi', user_id: 'u1', include_trace: 'yes' }, 'include_trace'],
        [{ text: 'hi', user_id: 'x'.repeat(256) }, 'user_id'],
      ];
      for (const [body, field] of cases) {
        const res = await t.http.post(SEND, body, shop.headers);
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe('validation_error');
        expect(res.body.error.details.map((d: any) => d.field)).toContain(field);
      }
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM interactions`);
      expect(n).toBe(0);
    });

    it('accepts an image without text, and agent variables', async () => {
      const res = await t.http.post(
        SEND,
        {
          user_id: 'u1',
          image_url: 'https://cdn.example/p.jpg?sig=1',
          agent_variables: { static: { store: 'berlin' }, dynamic: { budget: 150 } },
          include_trace: true,
        },
        shop.headers,
      );
      expect(res.status).toBe(200);
      expect(res.body.message.trace_info.computed_parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: 'budget' })]),
      );
    });

    it('answers 404 for an unknown thread and for a thread of another agent', async () => {
      const other = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      const theirs = await t.http.post(SEND, { text: 'show me jackets', user_id: 'u1' }, other.headers);
      const res = await t.http.post(SEND, { text: 'hi', user_id: 'u1', thread_id: theirs.body.thread_id }, shop.headers);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      expect((await t.http.post(SEND, { text: 'hi', user_id: 'u1', thread_id: '0123456789abcdef01234567' }, shop.headers)).status).toBe(
        404,
      );
      expect((await t.http.post(`/messaging/v1/threads/${theirs.body.thread_id}/rerun`, {}, shop.headers)).status).toBe(404);
    });
  });

  describe('v2 grounded engine', () => {
    it('answers with citations that point at the right document and a v2 trace', async () => {
      const org = await t.factory.org();
      const help = await liveAgent(t, org, { bundle: helpBundle, runtime: 'v2' });
      const res = await t.http.post(
        SEND,
        { text: 'How many days do I have to return an item?', user_id: 'u1', include_trace: true },
        help.headers,
      );
      expect(res.status).toBe(200);
      const { message } = res.body;
      expect(message.text).toMatch(/\[1\]/);
      expect(message.text).toMatch(/30 days/);
      const trace = message.trace_info;
      expect(trace.runtime).toBe('v2');
      expect(trace.citations_used[0]).toMatchObject({ document_id: 'returns', url: 'https://help.example/returns' });
      expect(trace.passages_used.length).toBeGreaterThan(0);
      expect(typeof trace.narrative).toBe('string');
      expect(message.url).toBe('https://help.example/returns');
    });

    it('honours runtime_version build pins and rejects unknown builds with 422', async () => {
      const org = await t.factory.org();
      const help = await liveAgent(t, org, { bundle: helpBundle, runtime: 'v2' });
      const pinned = await t.http.post(
        SEND,
        { text: 'How long does shipping take?', user_id: 'u1', runtime_version: '2', include_trace: true },
        help.headers,
      );
      expect(pinned.status).toBe(200);
      const unknown = await t.http.post(SEND, { text: 'hi', user_id: 'u1', runtime_version: '9.9' }, help.headers);
      expect(unknown.status).toBe(422);
      expect(unknown.body.error.details[0].field).toBe('runtime_version');
      const malformed = await t.http.post(SEND, { text: 'hi', user_id: 'u1', runtime_version: 'latest' }, help.headers);
      expect(malformed.status).toBe(422);
    });
  });

  describe('credentials and agent state', () => {
    it('requires a messaging credential', async () => {
      const org = await t.factory.org();
      expect((await t.http.post(SEND, { text: 'hi', user_id: 'u1' })).status).toBe(401);
      expect((await t.http.post(SEND, { text: 'hi', user_id: 'u1' }, org.headers)).status).toBe(401);
      expect((await t.http.post(SEND, { text: 'hi', user_id: 'u1' }, { authorization: 'Bearer nope' })).status).toBe(401);
    });

    it('answers 404 no_active_version before the agent has a published version', async () => {
      const org = await t.factory.org();
      const agent = await t.factory.agent(org);
      const { key } = await t.factory.publishableKey(agent);
      const token = (await t.http.post('/management/v1/auth/token', { grant_type: 'publishable_key', publishable_key: key })).body
        .access_token;
      const res = await t.http.post(SEND, { text: 'hi', user_id: 'u1' }, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('no_active_version');
    });

    it('serves messaging to an agent-scoped login session and answers an unscoped one 400', async () => {
      const org = await t.factory.org();
      const shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      const user = await t.factory.user(org);
      const scoped = (
        await t.http.post('/management/v1/auth/token', {
          grant_type: 'password',
          username: user.email,
          password: user.password,
          agent_id: shop.agentId,
        })
      ).body.access_token;
      expect((await t.http.post(SEND, { text: 'show me jackets', user_id: 'u1' }, { authorization: `Bearer ${scoped}` })).status).toBe(200);
      const unscoped = (
        await t.http.post('/management/v1/auth/token', { grant_type: 'password', username: user.email, password: user.password })
      ).body.access_token;
      const res = await t.http.post(SEND, { text: 'show me jackets', user_id: 'u1' }, { authorization: `Bearer ${unscoped}` });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('bad_request');
    });

    it("refuses a browser origin outside the publishable key's allowed origins (403)", async () => {
      const org = await t.factory.org();
      const shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      const agent = { id: shop.agentId, organizationId: org.id } as any;
      const { key } = await t.factory.publishableKey(agent, { origins: ['https://shop.example'] });
      const token = (
        await t.http.post(
          '/management/v1/auth/token',
          { grant_type: 'publishable_key', publishable_key: key },
          { origin: 'https://shop.example' },
        )
      ).body.access_token;
      const ok = await t.http.post(
        SEND,
        { text: 'show me jackets', user_id: 'u1' },
        { authorization: `Bearer ${token}`, origin: 'https://shop.example' },
      );
      expect(ok.status).toBe(200);
      const denied = await t.http.post(
        SEND,
        { text: 'show me jackets', user_id: 'u1' },
        { authorization: `Bearer ${token}`, origin: 'https://evil.example' },
      );
      expect(denied.status).toBe(403);
      expect(denied.body.error.code).toBe('forbidden');
    });
  });
});
