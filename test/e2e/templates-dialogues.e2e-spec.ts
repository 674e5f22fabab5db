import { liveAgent } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SEND = '/messaging/v1/messages';

/** The shipped templates, published as they are, hold a real conversation (the dialogues of docs/engines.md). */
describe('template dialogues', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  it('shopping-assistant: a product question gets catalog cards with variants and a v1 trace', async () => {
    const org = await t.factory.org();
    const shop = await liveAgent(t, org, { template: 'shopping-assistant' });
    const res = await t.http.post(SEND, { text: 'show me running shoes under $150', user_id: 'u1', include_trace: true }, shop.headers);
    expect(res.status).toBe(200);
    const { message } = res.body;
    expect(message.cards.length).toBeGreaterThan(0);
    expect(message.cards.map((c: any) => c.instance)).toContain('trail-runner-2');
    for (const card of message.cards) {
      expect(card.capability).toBe('catalog_search');
      expect(Number(card.json_data.entity.price)).toBeLessThanOrEqual(150);
      expect(card.json_data.sub_entities[0].name).toBe('variants');
    }
    expect(message.trace_info.understanding.intents).toContain('product_search');
    expect(message.trace_info.computed_parameters).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'budget' })]));
    expect(message.followup_suggestions).toEqual(['Show it in another colour', 'Anything cheaper?', 'Is it in stock in my size?']);
  });

  it('shopping-assistant: a gift request is asked for a budget; a card number is blocked', async () => {
    const org = await t.factory.org();
    const shop = await liveAgent(t, org, { template: 'shopping-assistant' });
    const gift = await t.http.post(
      SEND,
      { text: 'I need a birthday gift for my dad who hikes', user_id: 'u1', include_trace: true },
      shop.headers,
    );
    expect(gift.body.message.text).toContain('how much would you like to spend');
    expect(gift.body.message.trace_info.response.asking_for).toEqual(['budget']);
    const card = await t.http.post(
      SEND,
      { text: 'my card is 4111 1111 1111 1111 can you charge it', user_id: 'u1', include_trace: true },
      shop.headers,
    );
    expect(card.body.message.text).toContain("Please don't share card numbers");
    expect(card.body.message.trace_info.understanding.guardrails.passed).toBe(false);
  });

  it('knowledge-assistant: a help question is answered from the right document with citations', async () => {
    const org = await t.factory.org();
    const help = await liveAgent(t, org, { template: 'knowledge-assistant' });
    const res = await t.http.post(SEND, { text: 'How do I export my notes?', user_id: 'u1', include_trace: true }, help.headers);
    expect(res.status).toBe(200);
    expect(res.body.message.text).toMatch(/\[1\]/);
    const trace = res.body.message.trace_info;
    expect(trace.runtime).toBe('v2');
    expect(trace.citations_used[0].document_id).toBe('export-data');
    expect(trace.narrative.length).toBeGreaterThan(20);
  });
});
