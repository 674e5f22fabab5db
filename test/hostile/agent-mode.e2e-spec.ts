import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import { MAX_CALLS_PER_STEP } from '../../src/modules/runtime/agent/agent-loop.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, helpBundle, liveAgent } from '../support/agents.js';
import { startAgentModel, toolResults, type AgentModelFake } from '../support/fake-agent-models.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/*
 * Hostile models and bundles in agent mode (docs/agents.md): whatever a model sends as tool calls, and whatever a
 * bundle declares as a tool's input schema, the turn answers, stores what it answered, and names what it refused.
 */

const SEND = '/messaging/v1/messages';

describe('hostile input: agent mode', () => {
  let t: TestApp;
  let org: TestOrg;
  let model: AgentModelFake;
  const bundle: Bundle = { ...helpBundle, model: { provider: 'openai', mode: 'agent', max_steps: 3 } };

  beforeAll(async () => {
    model = await startAgentModel('openai');
    t = await createTestApp({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'test-key' });
  });
  beforeEach(async () => {
    await t.reset();
    org = await t.factory.org();
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  const turn = async () => {
    const agent = await liveAgent(t, org, { bundle, runtime: 'v2' });
    const res = expectStatus(
      await t.http.post(SEND, { text: 'shipping?', user_id: 'u1', include_trace: true }, agent.headers),
      200,
      'send',
    );
    const stored: Array<{ text: string }> = await t.dataSource.query(
      `SELECT text FROM thread_items WHERE thread_id = $1 AND kind = 'agent'`,
      [res.body.thread_id],
    );
    return { message: res.body.message, stored };
  };

  it('refuses oversized arguments and arguments nested thousands deep (schema bombs) without echoing them back', async () => {
    let deep = '1';
    for (let i = 0; i < 3000; i++) deep = `[${deep}]`;
    model.script([
      {
        calls: [
          { name: 'search_knowledge', arguments: JSON.stringify({ query: 'x'.repeat(100_000) }) },
          { name: 'search_knowledge', arguments: `{"query": ${deep}}` },
          { name: 'search_knowledge', arguments: { query: 'shipping', extra: { a: { b: { c: [1, 2, 3] } } } } },
        ],
      },
      { text: 'Shipping takes 3 to 5 days [1].' },
    ]);
    const { message } = await turn();
    const steps = message.trace_info.steps as Array<{ status: string; fail_reason: string; arguments: string }>;
    expect(steps.map((s) => s.status)).toEqual(['refused', 'refused', 'refused']);
    expect(steps[0]!.fail_reason).toMatch(/over 16384 characters/);
    expect(steps[1]!.fail_reason).toMatch(/must be a string/);
    expect(steps[2]!.fail_reason).toMatch(/"extra" is not an argument/);
    expect(steps.every((s) => s.arguments.length <= 2000)).toBe(true);
    // No passage was returned, so the model's [1] names nothing and is removed.
    expect(message.text).toBe('Shipping takes 3 to 5 days.');
    const request = model.requests.at(-1)!;
    expect(JSON.stringify(request.body).length).toBeLessThan(60_000);
    expect(toolResults(request).every((r) => r.isError)).toBe(true);
  });

  it('stores NUL and lone surrogates from the model as clean text, and bounds a flood of calls', async () => {
    model.script([
      { calls: Array.from({ length: 40 }, (_, i) => ({ name: `t\u0000${'n'.repeat(i * 300)}\ud800`, arguments: '{"q":"\u0000"}' })) },
      { text: 'Done\u0000 here \udc00.' },
    ]);
    const { message, stored } = await turn();
    expect(message.text).toBe('Done here .');
    expect(stored.at(-1)!.text).toBe('Done here .');
    const steps = message.trace_info.steps as Array<{ status: string; tool: string; fail_reason: string }>;
    expect(steps).toHaveLength(40);
    expect(steps.every((s) => s.status === 'refused' && !s.tool.includes('\u0000') && s.tool.length <= 128)).toBe(true);
    expect(steps.slice(MAX_CALLS_PER_STEP).every((s) => /too many calls at once/.test(s.fail_reason))).toBe(true);
  });

  it('refuses nested and oversized tool input schemas in the bundle with 422 naming the field', async () => {
    const project = expectStatus(await t.http.post('/management/v1/projects', { name: 'Hostile' }, org.headers), 201, 'project').body;
    const agent = expectStatus(
      await t.http.post(`/management/v1/projects/${project.id}/agents`, { name: 'Agent' }, org.headers),
      201,
      'agent',
    ).body;
    const version = expectStatus(
      await t.http.post(`/management/v1/agents/${agent.id}/versions`, { source: 'empty' }, org.headers),
      201,
      'version',
    ).body;
    // A schema that nests (the edge refuses bodies nested past its JSON depth limit before any route runs).
    let nested: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 3; i++) nested = { type: 'object', properties: { a: nested } };
    const tool = {
      code: 'lookup',
      type: 'http',
      method: 'GET',
      url: 'https://api.example.com/orders/{order_id}',
      response: { message: 'ok' },
      input_schema: { type: 'object', properties: { order_id: nested } },
    };
    const res = await t.http.post(
      `/management/v1/agents/${agent.id}/versions/${version.id}/push`,
      { bundle: { model: { provider: 'openai', mode: 'agent' }, tools: [tool] } },
      org.headers,
    );
    expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^bundle\.tools\[0\]\.input_schema\.properties\.order_id/)]),
    );
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const wide = await t.http.post(
      `/management/v1/agents/${agent.id}/versions/${version.id}/push`,
      {
        bundle: { model: { provider: 'openai', mode: 'agent' }, tools: [{ ...tool, input_schema: { type: 'object', properties: many } }] },
      },
      org.headers,
    );
    expect(wide.status).toBe(422);
  });
});
