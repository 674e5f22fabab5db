import { startFakeAnthropic } from '../../../../test/support/fake-anthropic-server.js';
import { startFakeOpenAI, type FakeServer } from '../../../../test/support/fake-openai-server.js';
import type { Bundle } from '../../bundles/bundle.types.js';
import { KB_BUNDLE } from '../../../../test/fixtures/runtime/kb.fixture.js';
import { agentFor, collect, newRuntime, turn, v2Trace } from '../../../../test/fixtures/runtime/runtime.fixture.js';
import { SHOP_BUNDLE } from '../../../../test/fixtures/runtime/shop.fixture.js';
import { UpstreamTimeoutError, UpstreamUnavailableError } from '../runtime.errors.js';
import { countTextTokens } from '../text/token-counter.js';
import type { RuntimeService } from '../runtime.service.js';

const withProvider = (bundle: Bundle, provider: 'openai' | 'anthropic', name = `${provider}-test-model`): Bundle => ({
  ...bundle,
  model: { provider, name, temperature: 0.2, max_output_tokens: 300 },
});

describe.each([
  ['openai', startFakeOpenAI],
  ['anthropic', startFakeAnthropic],
] as const)('%s provider against the local fake', (provider, start) => {
  let fake: FakeServer;
  let runtime: RuntimeService;
  /** Same provider, short deadline: for the hang tests. */
  let impatient: RuntimeService;

  beforeAll(async () => {
    fake = await start();
    runtime = newRuntime({ [provider]: { apiKey: 'test-key', baseUrl: fake.url }, timeoutMs: 5000 });
    impatient = newRuntime({ [provider]: { apiKey: 'test-key', baseUrl: fake.url }, timeoutMs: 400 });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.behave({});
  });

  const lastBody = () => fake.requests[fake.requests.length - 1]!.body as Record<string, unknown>;

  it('writes the v1 reply from the engine material, keeps cards and trace, and records provider usage', async () => {
    fake.behave({ cachedTokens: 7, reasoningTokens: provider === 'openai' ? 3 : 0 });
    const agent = agentFor(runtime, 'v1', withProvider(SHOP_BUNDLE, provider));
    const history = [
      { role: 'user' as const, text: 'hi' },
      { role: 'agent' as const, text: 'Hello! How can I help?' },
    ];
    const r = await runtime.run(agent, turn('running shoes under $100', { history }));
    expect(fake.requests).toHaveLength(1);
    expect(r.text).toContain('Aero Road Runner');
    expect(r.cards.map((c) => c.instance)).toEqual(['sku-1', 'sku-4']);
    expect((r.trace as { response: { message: string } }).response.message).toBe(r.text);
    // The trace says who answered: the provider, its model, and where the call went.
    expect(r.trace.model).toEqual({ provider, name: `${provider}-test-model`, endpoint: fake.url.replace(/\/$/, ''), writer: provider });
    const body = lastBody();
    expect(body.model).toBe(`${provider}-test-model`);
    expect(body.temperature).toBe(0.2);
    const system = provider === 'openai' ? String((body.messages as Array<{ content: string }>)[0]!.content) : String(body.system);
    expect(system).toContain('A friendly, concise running-gear expert.');
    expect(system).toContain('[1] Aero Road Runner');
    expect(system).toContain('Orders over $80 ship for free.');
    const messages = body.messages as Array<{ role: string; content: unknown }>;
    expect(messages.slice(-3).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const headers = fake.requests[0]!.headers;
    expect(String(headers['x-api-key'] ?? headers.authorization)).toContain('test-key');
    // usage comes from the provider, mapped to our four counters
    expect(r.usage.cache_read_tokens).toBe(7);
    expect(r.usage.reasoning_tokens).toBe(provider === 'openai' ? 3 : 0);
    expect(r.usage.output_tokens).toBe(r.text.match(/\s*\S+/g)!.length);
    expect(r.usage.input_tokens).toBeGreaterThan(0);
  });

  it('streams the provider deltas through unchanged, then cards, then the result', async () => {
    const agent = agentFor(runtime, 'v1', withProvider(SHOP_BUNDLE, provider));
    const { events, deltas, result } = await collect(runtime.stream(agent, turn('running shoes under $100')));
    expect(deltas).toEqual(result.text.match(/\s*\S+/g)); // the fake's word chunks, one delta each
    expect(deltas.join('')).toBe(result.text);
    expect(events.filter((e) => e.type === 'card')).toHaveLength(2);
    expect(events[events.length - 1]!.type).toBe('result');
    expect(lastBody().stream).toBe(true);
    if (provider === 'openai') expect(lastBody().stream_options).toEqual({ include_usage: true });
    expect(result.usage.output_tokens).toBe(deltas.length);
    expect(result.usage.input_tokens).toBeGreaterThan(0);
  });

  it('v2: the model cites with [n] markers that resolve to the passages it was given', async () => {
    const agent = agentFor(runtime, 'v2', withProvider(KB_BUNDLE, provider));
    const r = await runtime.run(agent, turn('How long do I have to return an item?'));
    const system =
      provider === 'openai' ? String((lastBody().messages as Array<{ content: string }>)[0]!.content) : String(lastBody().system);
    expect(system).toContain('[1] Returns and refunds');
    expect(system).toMatch(/put the marker of the source/);
    const t = v2Trace(r.trace);
    expect(t.citations_used[0]).toMatchObject({ marker: 1, document_id: 'doc-returns' });
    expect(t.checks.every((c) => c.passed)).toBe(true);
    expect(t.narrative).toContain(`with the ${provider} model`);

    const streamed = await collect(runtime.stream(agent, turn('How long do I have to return an item?')));
    expect(streamed.deltas.join('')).toBe(streamed.result.text);
    expect(v2Trace(streamed.result.trace).citations_used[0]!.document_id).toBe('doc-returns');
  });

  it('flags a citation marker that maps to no passage', async () => {
    fake.behave({ reply: () => 'Returns are accepted within 30 days [1]. Also see [7].' });
    const agent = agentFor(runtime, 'v2', withProvider(KB_BUNDLE, provider));
    const r = await runtime.run(agent, turn('How long do I have to return an item?'));
    const t = v2Trace(r.trace);
    expect(t.citations_used.map((c) => c.marker)).toEqual([1]);
    expect(t.checks.find((c) => c.name === 'citations_map_to_passages')!.passed).toBe(false);
  });

  it('keeps the provider’s real usage when it writes no text (the engine’s draft is the reply)', async () => {
    fake.behave({ reply: () => '', usage: { input: 321, output: 4 } });
    const agent = agentFor(runtime, 'v1', withProvider(SHOP_BUNDLE, provider));
    const r = await runtime.run(agent, turn('running shoes under $100'));
    expect(r.text).toContain('Aero Road Runner');
    expect(r.usage).toEqual({ input_tokens: 321, output_tokens: 4, cache_read_tokens: 0, reasoning_tokens: 0 });
    expect((r.trace as { response: { message: string } }).response.message).toBe(r.text);
    const streamed = await collect(runtime.stream(agent, turn('running shoes under $100')));
    expect(streamed.deltas.join('')).toBe(streamed.result.text);
    expect(streamed.result.text).toBe(r.text);
    expect(streamed.result.usage).toEqual(r.usage);
  });

  if (provider === 'openai') {
    it('counts with the tokenizer when the server reports no usage, in streams too', async () => {
      fake.behave({ omitUsage: true });
      const agent = agentFor(runtime, 'v1', withProvider(SHOP_BUNDLE, provider));
      const r = await runtime.run(agent, turn('running shoes under $100'));
      expect(r.usage.output_tokens).toBe(countTextTokens(r.text));
      const system = String((lastBody().messages as Array<{ content: string }>)[0]!.content);
      expect(r.usage.input_tokens).toBe(countTextTokens(system) + countTextTokens('running shoes under $100'));
      const streamed = await collect(runtime.stream(agent, turn('running shoes under $100')));
      expect(streamed.result.usage).toEqual(r.usage);
    });
  }

  it('does not call the model for guardrail blocks, rule blocks or questions', async () => {
    const agent = agentFor(runtime, 'v1', withProvider(SHOP_BUNDLE, provider));
    const blocked = await runtime.run(agent, turn('diagnose my injury'));
    const ruled = await runtime.run(agent, turn('shoes under $10'));
    expect(blocked.text).toBe(SHOP_BUNDLE.guardrails![0]!.message);
    expect(ruled.text).toBe('Sorry, we have no running shoes under $30.');
    expect(fake.requests).toHaveLength(0);
    expect(ruled.usage.output_tokens).toBeGreaterThan(0); // counted with the tokenizer instead
  });

  it('sends image_url as vision input', async () => {
    const agent = agentFor(runtime, 'v1', withProvider(SHOP_BUNDLE, provider));
    await runtime.run(agent, turn('do you have running shoes like this', { imageUrl: 'https://img.example.com/shoe.png?sig=abc' }));
    const last = (lastBody().messages as Array<{ content: unknown }>).at(-1)!.content as Array<Record<string, unknown>>;
    if (provider === 'openai') {
      expect(last).toContainEqual({ type: 'image_url', image_url: { url: 'https://img.example.com/shoe.png?sig=abc' } });
    } else expect(last).toContainEqual({ type: 'image', source: { type: 'url', url: 'https://img.example.com/shoe.png?sig=abc' } });
  });

  it('turns a provider error status into 502 upstream_unavailable', async () => {
    fake.behave({ failStatus: 400 });
    const agent = agentFor(runtime, 'v1', withProvider(SHOP_BUNDLE, provider));
    const error = await runtime.run(agent, turn('running shoes')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamUnavailableError);
    expect(error).toMatchObject({ status: 502, code: 'upstream_unavailable' });
    expect((error as Error).message).toContain('400');
    // The message names where the provider is and the variable that says so.
    expect((error as Error).message).toContain(`The ${provider} provider at ${fake.url.replace(/\/$/, '')}`);
    expect((error as Error).message).toContain(`(${provider.toUpperCase()}_BASE_URL) answered 400`);
    expect(fake.requests).toHaveLength(1); // a 4xx is not retried
    fake.behave({ failStatus: 401 });
    await expect(runtime.run(agent, turn('running shoes'))).rejects.toThrow(`check ${provider.toUpperCase()}_API_KEY`);
    fake.behave({ failStatus: 503 });
    await expect(collect(runtime.stream(agent, turn('running shoes')))).rejects.toMatchObject({
      status: 502,
      code: 'upstream_unavailable',
    });
    // and through the magic word, as e2e tests use it
    fake.behave({});
    await expect(runtime.run(agent, turn('running shoes [[fail:500]]'))).rejects.toMatchObject({ status: 502 });
  });

  it('turns a hang into 504 upstream_timeout: the deadline ends the wait (the fake never answers)', async () => {
    const agent = agentFor(impatient, 'v1', withProvider(SHOP_BUNDLE, provider));
    fake.behave({ hang: true });
    const error = await impatient.run(agent, turn('running shoes')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamTimeoutError);
    expect(error).toMatchObject({ status: 504, code: 'upstream_timeout' });

    fake.behave({ hangAfterFirstChunk: true });
    const seen: string[] = [];
    const streamed = (async () => {
      for await (const e of impatient.stream(agent, turn('running shoes'))) if (e.type === 'delta') seen.push(e.text);
    })();
    await expect(streamed).rejects.toMatchObject({ status: 504, code: 'upstream_timeout' });
    expect(seen.length).toBe(1);
  });
});

describe('provider configuration', () => {
  it('reports an unreachable provider as 502', async () => {
    const runtime = newRuntime({ openai: { apiKey: 'k', baseUrl: 'http://127.0.0.1:9/v1' }, timeoutMs: 1000 });
    const agent = agentFor(runtime, 'v1', withProvider(SHOP_BUNDLE, 'openai'));
    await expect(runtime.run(agent, turn('running shoes'))).rejects.toMatchObject({
      status: 502,
      code: 'upstream_unavailable',
      message: expect.stringContaining('The openai provider at http://127.0.0.1:9/v1 (OPENAI_BASE_URL) could not be reached'),
    });
  });
});

describe('anthropic conversation shape', () => {
  it('starts with the user and alternates roles', async () => {
    const { alternate } = await import('./anthropic.provider.js');
    expect(
      alternate([
        { role: 'assistant', content: 'Welcome!' },
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
        { role: 'assistant', content: 'c' },
        { role: 'user', content: 'd' },
      ]),
    ).toEqual([
      { role: 'user', content: 'a\n\nb' },
      { role: 'assistant', content: 'c' },
      { role: 'user', content: 'd' },
    ]);
  });
});
