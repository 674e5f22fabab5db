import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import { countTextTokens } from '../../src/modules/runtime/text/token-counter.js';
import { startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { startFakeOpenAI, type FakeServer } from '../support/fake-openai-server.js';
import { helpBundle, liveAgent, shopBundle } from '../support/agents.js';
import { openSse } from '../support/sse-client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SEND = '/messaging/v1/messages';
const STREAM = '/messaging/v1/messages/stream';

/**
 * The messaging dialogues with a model provider writing the wording: the engine still does guardrails,
 * retrieval, tools and rules; the provider (a local server speaking the real protocol) writes the reply and
 * reports the token usage that is recorded.
 */
describe.each([
  ['openai', startFakeOpenAI, 'gpt-4o-mini'],
  ['anthropic', startFakeAnthropic, 'claude-test-model'],
] as const)('messaging with the %s provider', (provider, startFake, model) => {
  let fake: FakeServer;
  let t: TestApp;
  const withModel = (bundle: Bundle): Bundle => ({ ...bundle, model: { provider, name: model, temperature: 0, max_output_tokens: 300 } });

  beforeAll(async () => {
    fake = await startFake();
    const key = provider === 'openai' ? 'OPENAI' : 'ANTHROPIC';
    t = await createTestApp({ [`${key}_BASE_URL`]: fake.url, [`${key}_API_KEY`]: 'test-key', PROVIDER_TIMEOUT_MS: '1500' });
  });
  beforeEach(async () => {
    await t.reset();
    fake.behave({});
    fake.requests.length = 0;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('answers a product question with cards from the catalog and the provider’s usage', async () => {
    const org = await t.factory.org();
    const shop = await liveAgent(t, org, { bundle: withModel(shopBundle), runtime: 'v1' });
    const res = await t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: 'u1', include_trace: true }, shop.headers);
    expect(res.status).toBe(200);
    expect(res.body.message.cards[0]).toMatchObject({ instance: 'sku-trail-1', capability: 'catalog' });
    expect(res.body.message.text).toContain('Ridge Runner');
    expect(res.body.message.trace_info.runtime).toBe('v1');
    expect(fake.requests.length).toBe(1);
    expect(JSON.stringify(fake.requests[0]!.body)).toContain('Ridge Runner Trail Shoe');
    const [row] = await t.dataSource.query(`SELECT input_tokens, output_tokens FROM interactions WHERE id = $1`, [res.body.interaction_id]);
    expect(row.input_tokens).toBe(res.body.message.input_tokens);
    expect(row.input_tokens).toBeGreaterThan(0);
    expect(row.output_tokens).toBeGreaterThan(0);
  });

  const usageOf = async (interactionId: string) =>
    (await t.dataSource.query(`SELECT input_tokens, output_tokens FROM interactions WHERE id = $1`, [interactionId]))[0] as {
      input_tokens: number;
      output_tokens: number;
    };

  it('records the provider’s real usage when it writes no text (the reply falls back to the engine’s draft)', async () => {
    const org = await t.factory.org();
    const shop = await liveAgent(t, org, { bundle: withModel(shopBundle), runtime: 'v1' });
    fake.behave({ reply: () => '', usage: { input: 321, output: 4 } });
    const sent = await t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: 'u1' }, shop.headers);
    expect(sent.status).toBe(200);
    expect(sent.body.message.text).toContain('Ridge Runner');
    expect(await usageOf(sent.body.interaction_id)).toEqual({ input_tokens: 321, output_tokens: 4 });

    const streamed = await (
      await openSse(t.baseUrl, STREAM, { headers: shop.headers, body: { text: 'I am looking for trail shoes', user_id: 'u1' } })
    ).collect();
    const message = streamed.find((e) => e.event === 'message')!.data;
    expect(message.message.text).toContain('Ridge Runner');
    expect(await usageOf(message.interaction_id)).toEqual({ input_tokens: 321, output_tokens: 4 });
  });

  it('still blocks with a guardrail without calling the provider', async () => {
    const org = await t.factory.org();
    const shop = await liveAgent(t, org, { bundle: withModel(shopBundle), runtime: 'v1' });
    const res = await t.http.post(SEND, { text: 'Can you diagnose my knee pain?', user_id: 'u1' }, shop.headers);
    expect(res.body.message.text).toBe('I can only help with gear, not medical questions.');
    expect(fake.requests.length).toBe(0);
  });

  it('answers a knowledge question with citations to the right document', async () => {
    const org = await t.factory.org();
    const help = await liveAgent(t, org, { bundle: withModel(helpBundle), runtime: 'v2' });
    const res = await t.http.post(
      SEND,
      { text: 'How many days do I have to return an item?', user_id: 'u1', include_trace: true },
      help.headers,
    );
    expect(res.status).toBe(200);
    expect(res.body.message.text).toMatch(/\[1\]/);
    expect(res.body.message.trace_info.citations_used[0]).toMatchObject({ document_id: 'returns' });
  });

  it('turns a provider error into 502 upstream_unavailable and saves nothing', async () => {
    const org = await t.factory.org();
    const shop = await liveAgent(t, org, { bundle: withModel(shopBundle), runtime: 'v1' });
    fake.behave({ failStatus: 500 });
    const res = await t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: 'u1' }, shop.headers);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('upstream_unavailable');
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM interactions`);
    expect(n).toBe(0);
  });

  it('turns a provider that hangs into a timeout error, never a hanging request', async () => {
    const org = await t.factory.org();
    const shop = await liveAgent(t, org, { bundle: withModel(shopBundle), runtime: 'v1' });
    fake.behave({ hang: true });
    // The fake never answers: an answer at all is the deadline at work, and it says so.
    const res = await t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: 'u1' }, shop.headers);
    expect(res.status).toBeGreaterThanOrEqual(502);
    expect(res.status).toBeLessThanOrEqual(504);
    expect(res.body.error.code).toMatch(/^upstream_/);
  });
});

describe('messaging with an OpenAI-compatible server that reports no usage', () => {
  let fake: FakeServer;
  let t: TestApp;
  const withModel = (bundle: Bundle): Bundle => ({
    ...bundle,
    model: { provider: 'openai', name: 'local-model', temperature: 0, max_output_tokens: 300 },
  });

  beforeAll(async () => {
    fake = await startFakeOpenAI({ omitUsage: true });
    t = await createTestApp({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key', PROVIDER_TIMEOUT_MS: '1500' });
  });
  beforeEach(() => t.reset());
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('counts the tokens with the tokenizer, when sending and when streaming', async () => {
    const org = await t.factory.org();
    const shop = await liveAgent(t, org, { bundle: withModel(shopBundle), runtime: 'v1' });
    const sent = await t.http.post(SEND, { text: 'I am looking for trail shoes', user_id: 'u1' }, shop.headers);
    expect(sent.status).toBe(200);
    const [row] = await t.dataSource.query(`SELECT input_tokens, output_tokens FROM interactions WHERE id = $1`, [
      sent.body.interaction_id,
    ]);
    expect(row.output_tokens).toBe(countTextTokens(sent.body.message.text));
    // the system prompt alone (persona, material, draft) is far more than the message
    expect(row.input_tokens).toBeGreaterThan(countTextTokens('I am looking for trail shoes') + 50);
    expect(sent.body.message.input_tokens).toBe(row.input_tokens);

    const events = await (
      await openSse(t.baseUrl, STREAM, { headers: shop.headers, body: { text: 'I am looking for trail shoes', user_id: 'u1' } })
    ).collect();
    const message = events.find((e) => e.event === 'message')!.data;
    const [streamed] = await t.dataSource.query(`SELECT input_tokens, output_tokens FROM interactions WHERE id = $1`, [
      message.interaction_id,
    ]);
    expect(streamed.output_tokens).toBe(countTextTokens(message.message.text));
    expect(streamed.input_tokens).toBe(row.input_tokens);
  });
});
