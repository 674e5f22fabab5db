import type { Bundle } from '../../bundles/bundle.types.js';
import { SHOP_BUNDLE } from '../../../../test/fixtures/runtime/shop.fixture.js';
import { agentFor, newRuntime, turn, v1Trace } from '../../../../test/fixtures/runtime/runtime.fixture.js';
import { SHOPPING_ASSISTANT_TEMPLATE } from '../../bundles/templates/shopping-assistant.template.js';
import { countTextTokens } from '../text/token-counter.js';
import type { V1Decision } from '../trace.types.js';

const V1_KEYS = ['computed_parameters', 'decisions', 'input', 'model', 'response', 'rules_evaluations', 'runtime', 'understanding'];
const DECISION_KEYS: Array<keyof V1Decision> = [
  'check_status',
  'computation',
  'fail_reason',
  'matched_branch',
  'output_param',
  'output_title',
  'parent_tool',
  'qualified',
  'rule',
  'status',
  'text',
  'tool',
  'track_id',
  'trigger',
  'trigger_type',
  'type',
];
const RESPONSE_KEYS = ['asking_for', 'block_message', 'error', 'jsx_widgets', 'message', 'question_reason', 'suggestions', 'type'];

describe('v1 decisioning engine (builtin provider)', () => {
  const runtime = newRuntime();
  const shop = agentFor(runtime, 'v1', SHOP_BUNDLE);

  it('answers a product question with ranked, filtered cards and a reply built from them', async () => {
    const r = await runtime.run(shop, turn('Show me running shoes under $100'));
    expect(r.runtime).toBe('v1');
    expect(r.runtimeBuild).toBe('1.0.0');
    expect(r.intent).toBe('product_search');
    // BM25+ ranks the two shoes under $100; the $139 and $199 shoes are filtered out by the budget
    expect(r.cards.map((c) => c.instance)).toEqual(['sku-1', 'sku-4']);
    expect(r.text).toContain('Here are 2 matches for running shoes under $100');
    expect(r.text).toContain('Budget Jogger ($49');
    expect(r.text).toContain('Aero Road Runner ($89');
    expect(r.text).toContain('Orders over $80 ship for free.'); // respond rule appended
    expect(r.followupSuggestions).toEqual(SHOP_BUNDLE.followups!.intents!.product_search);
    expect(r.facets).toEqual({
      tools: ['product_search'],
      rules: [
        { code: 'budget_too_low', outcome: 'passed' },
        { code: 'budget_needs_size', outcome: 'passed' },
        { code: 'free_shipping', outcome: 'fired' },
      ],
      params: { budget: 100 },
    });
  });

  it('builds cards with flat entity fields, variants as sub-entities, escaped JSX and provenance', async () => {
    const r = await runtime.run(shop, turn('running shoes under $100'));
    const [top, second] = r.cards;
    expect(top).toMatchObject({
      is_recommended: true,
      index: 0,
      capability: 'product_search',
      instance: 'sku-1',
      title: 'Aero Road Runner',
    });
    expect(second).toMatchObject({ is_recommended: false, index: 1, instance: 'sku-4', title: 'Budget Jogger' });
    expect(second!.json_data.sub_entities).toEqual([{ name: 'variants', items: [{ size: '41', color: 'grey' }] }]);
    expect(top!.json_data.entity).toEqual({
      id: 'sku-1',
      name: 'Aero Road Runner',
      category: 'running shoes',
      description: 'Light road running shoe for daily training.',
      price: 89,
    });
    expect(top!.json_data.sub_entities).toEqual([
      {
        name: 'variants',
        items: [
          { size: '42', color: 'blue' },
          { size: '43', color: 'black' },
        ],
      },
    ]);
    expect(top!.rendered_jsx).toBe(
      '<ProductCard id="sku-1" title="Aero Road Runner" category="running shoes" description="Light road running shoe for daily training." price={89} variantCount={2} isRecommended={true} />',
    );
    expect(second!.rendered_jsx).not.toContain('isRecommended');

    const socks = await runtime.run(shop, turn('show me running socks'));
    const card = socks.cards.find((c) => c.instance === 'sku-6')!;
    expect(card.json_data.sub_entities).toEqual([]);
    expect(card.rendered_jsx).toContain('description="Warm wool running socks &quot;that don\'t itch&quot; &lt;3."');
  });

  it('fills every field of the spec v1 trace shape', async () => {
    const r = await runtime.run(shop, turn('Show me running shoes under $100'));
    const t = v1Trace(r.trace);
    expect(Object.keys(t).sort()).toEqual(V1_KEYS);
    expect(t.runtime).toBe('v1');
    expect(t.input).toEqual({ message: 'Show me running shoes under $100' });
    expect(t.understanding).toEqual({ intents: ['product_search'], guardrails: { passed: true, reason: expect.any(String) } });
    expect(t.decisions).toHaveLength(4); // one tool call + three rules
    for (const d of t.decisions) {
      expect(Object.keys(d).sort()).toEqual(DECISION_KEYS);
      expect(Object.keys(d.trigger).sort()).toEqual(['matched_objective', 'reasons', 'type']);
      expect(Object.keys(d.rule).sort()).toEqual(['action', 'code', 'reason', 'type']);
      for (const k of DECISION_KEYS.filter((k) => !['trigger', 'rule', 'qualified'].includes(k))) expect(typeof d[k]).toBe('string');
      expect(typeof d.qualified).toBe('boolean');
    }
    const [tool, , , shipping] = t.decisions;
    expect(tool).toMatchObject({
      type: 'tool_call',
      tool: 'product_search',
      status: 'completed',
      trigger_type: 'intent',
      qualified: true,
      output_title: 'Aero Road Runner',
    });
    expect(tool!.trigger).toMatchObject({ type: 'intent', matched_objective: 'product_search' });
    expect(tool!.computation).toContain('price <= 100 (from budget)');
    expect(shipping).toMatchObject({
      type: 'rule',
      status: 'triggered',
      qualified: true,
      matched_branch: 'respond',
      output_param: 'budget',
      output_title: 'Budget',
    });
    expect(shipping!.rule).toEqual({
      type: 'greater_than_or_equal',
      action: 'respond',
      reason: 'budget (100) >= 80 → true',
      code: 'free_shipping',
    });
    expect(t.computed_parameters).toEqual([{ code: 'budget', title: 'Budget', scope: 'message' }]);
    expect(Object.keys(t.response).sort()).toEqual(RESPONSE_KEYS);
    expect(t.response).toMatchObject({
      type: 'answer_with_cards',
      message: r.text,
      suggestions: r.followupSuggestions,
      asking_for: [],
      block_message: '',
      error: '',
    });
    expect(t.response.jsx_widgets).toEqual(
      r.cards.map((c) => ({
        name: c.title,
        category: 'product_search',
        rendered_jsx: c.rendered_jsx,
        is_recommended: c.is_recommended,
        index: c.index,
      })),
    );
    expect(t.rules_evaluations).toEqual([
      {
        code: 'budget_too_low',
        triggered: false,
        reason: [{ passed: false, trigger_type: 'parameter', condition: { method: 'less_than', operation: 'budget (100) < 30 → false' } }],
      },
      {
        code: 'budget_needs_size',
        triggered: false,
        reason: [
          {
            passed: false,
            trigger_type: 'parameter',
            condition: { method: 'greater_than_or_equal', operation: 'budget (100) >= 150 → false' },
          },
        ],
      },
      {
        code: 'free_shipping',
        triggered: true,
        reason: [
          {
            passed: true,
            trigger_type: 'parameter',
            condition: { method: 'greater_than_or_equal', operation: 'budget (100) >= 80 → true' },
          },
        ],
      },
    ]);
  });

  it('blocks on a budget rule: the rule message, no cards, outcome blocked', async () => {
    const r = await runtime.run(shop, turn('running shoes under $20'));
    expect(r.text).toBe('Sorry, we have no running shoes under $30.');
    expect(r.cards).toEqual([]);
    expect(r.facets.rules).toContainEqual({ code: 'budget_too_low', outcome: 'blocked' });
    const t = v1Trace(r.trace);
    expect(t.response).toMatchObject({ type: 'block', block_message: 'Sorry, we have no running shoes under $30.', message: r.text });
  });

  it('asks on an ask rule, naming what it asks for, and stops asking once that is known', async () => {
    const r = await runtime.run(shop, turn('running shoes under $200'));
    expect(r.text).toBe('For premium shoes, which size do you wear?');
    expect(r.cards).toEqual([]);
    const t = v1Trace(r.trace);
    expect(t.response).toMatchObject({ type: 'question', asking_for: ['size'] });
    expect(t.response.question_reason).toContain('budget_needs_size');

    const answered = await runtime.run(shop, turn('running shoes under $200 in size 42'));
    expect(answered.facets.rules).toContainEqual({ code: 'budget_needs_size', outcome: 'passed' });
    expect(answered.cards.length).toBeGreaterThan(0);
    expect(answered.cards.every((c) => c.json_data.sub_entities[0]?.items.some((v) => v.size === '42'))).toBe(true);
  });

  it('blocks on a guardrail (case-insensitive) before anything else runs', async () => {
    const r = await runtime.run(shop, turn('Can you DIAGNOSE my knee pain?'));
    expect(r.text).toBe('I can not give medical advice. Please see a professional.');
    expect(r.cards).toEqual([]);
    expect(r.facets).toEqual({ tools: [], rules: [], params: {} });
    const t = v1Trace(r.trace);
    expect(Object.keys(t).sort()).toEqual(V1_KEYS);
    expect(t.understanding.guardrails.passed).toBe(false);
    expect(t.understanding.guardrails.reason).toContain('no_medical');
    expect(t.response).toMatchObject({ type: 'block', block_message: r.text });
  });

  it('recognises intents by similarity, not exact match', async () => {
    expect((await runtime.run(shop, turn('got any trail running shoes?'))).intent).toBe('product_search');
    expect((await runtime.run(shop, turn('I would like a refund for my order please'))).intent).toBe('returns');
    expect((await runtime.run(shop, turn('what is the weather tomorrow'))).intent).toBeNull();
  });

  it('runs a tool only for its listed intents, and records the skip', async () => {
    const r = await runtime.run(shop, turn('hello there'));
    expect(r.intent).toBe('greeting');
    expect(r.cards).toEqual([]);
    expect(r.facets.tools).toEqual([]);
    expect(r.text).toBe(SHOP_BUNDLE.welcome_message);
    const t = v1Trace(r.trace);
    expect(t.decisions[0]).toMatchObject({ type: 'tool_call', status: 'skipped', qualified: false });
  });

  it('computes parameters from agent variables; message values win over dynamic over static', async () => {
    const fromVars = await runtime.run(
      shop,
      turn('show me running shoes', { agentVariables: { static: { budget: 500, region: 'eu' }, dynamic: { budget: '60' } } }),
    );
    expect(fromVars.facets.params).toEqual({ budget: 60, region: 'eu' });
    expect(fromVars.cards.map((c) => c.instance)).toEqual(['sku-4']);
    const t = v1Trace(fromVars.trace);
    expect(t.computed_parameters).toEqual([
      { code: 'budget', title: 'Budget', scope: 'dynamic' },
      { code: 'region', title: 'region', scope: 'static' },
    ]);
    const fromMessage = await runtime.run(shop, turn('running shoes under $95', { agentVariables: { dynamic: { budget: 60 } } }));
    expect(fromMessage.facets.params.budget).toBe(95);
    // free-form variables (events webhook) count as dynamic
    const flat = await runtime.run(shop, turn('running shoes', { agentVariables: { budget: 50 } }));
    expect(flat.facets.params).toEqual({ budget: 50 });
  });

  it('counts tokens with the BPE tokenizer when the provider reports none', async () => {
    const r = await runtime.run(shop, turn('running shoes under $100'));
    expect(r.usage.output_tokens).toBe(countTextTokens(r.text));
    expect(r.usage.input_tokens).toBeGreaterThan(countTextTokens('running shoes under $100'));
    expect(r.usage).toMatchObject({ cache_read_tokens: 0, reasoning_tokens: 0 });
  });

  it('answers the shopping-assistant template: size filter on variants, gift ask, card guardrail', async () => {
    const rt = newRuntime();
    const agent = agentFor(rt, 'v1', SHOPPING_ASSISTANT_TEMPLATE.bundle);
    const shoes = await rt.run(agent, turn('Trail running shoes in size 10'));
    expect(shoes.cards[0]).toMatchObject({ instance: 'trail-runner-2', is_recommended: true });
    expect(shoes.text).toContain('Trail Runner 2 Running Shoe');
    const gift = await rt.run(agent, turn('I need a birthday gift idea'));
    expect(gift.facets.rules).toContainEqual({ code: 'gift_needs_budget', outcome: 'fired' });
    expect(v1Trace(gift.trace).response.asking_for).toEqual(['budget']);
    const card = await rt.run(agent, turn('my card is 4111 1111 1111 1111'));
    expect(v1Trace(card.trace).understanding.guardrails.passed).toBe(false);
  });
});

describe('v1 decisioning engine: image-only turns', () => {
  it('says it cannot see images when there is no text (builtin)', async () => {
    const runtime = newRuntime();
    const shop = agentFor(runtime, 'v1', SHOP_BUNDLE);
    const r = await runtime.run(shop, { imageUrl: 'https://img.example.com/a.png', agentVariables: {}, history: [] });
    expect(r.text).toMatch(/can't look at images/);
    expect(v1Trace(r.trace).input.message).toBe('');
  });
});

describe('v1 decisioning engine: continuing a request across turns', () => {
  const runtime = newRuntime();
  const shop = agentFor(runtime, 'v1', SHOP_BUNDLE);
  const said = (...texts: string[]) =>
    texts.flatMap((text) => [
      { role: 'user' as const, text },
      { role: 'agent' as const, text: '…' },
    ]);

  it('a bare budget refines the previous search', async () => {
    const r = await runtime.run(shop, turn('under $140 please', { history: said('do you have trail shoes') }));
    expect(r.intent).toBe('product_search');
    expect(r.cards.map((c) => c.instance)).toEqual(['sku-2']);
    expect(r.facets.params).toEqual({ budget: 140 });
    expect(String(v1Trace(r.trace).decisions[0]!.trigger.reasons[0])).toContain('continuing the earlier request');
  });

  it('answering an ask keeps the earlier parameters and completes the search', async () => {
    const asked = await runtime.run(shop, turn('running shoes under $200'));
    expect(asked.text).toBe('For premium shoes, which size do you wear?');
    const r = await runtime.run(shop, turn('size 42', { history: said('running shoes under $200') }));
    expect(r.facets.params).toEqual({ budget: 200, size: '42' });
    expect(r.facets.rules).toContainEqual({ code: 'budget_needs_size', outcome: 'passed' });
    expect(r.cards.map((c) => c.instance).sort()).toEqual(['sku-1', 'sku-2']);
  });

  it('a message with its own subject starts afresh', async () => {
    const r = await runtime.run(shop, turn('show me a running jacket', { history: said('running shoes under $20') }));
    expect(r.facets.params).toEqual({});
    expect(r.cards[0]!.instance).toBe('sku-5');
  });
});

describe('v1 decisioning engine: what kind of product was asked for', () => {
  const product = (id: string, name: string, category: string, description: string) => ({
    id,
    name,
    category,
    description,
    price: 50,
    variants: [{ size: 'M', colour: 'Red', in_stock: true }],
  });
  const bundle: Bundle = {
    name: 'Outdoor shop',
    tools: [
      {
        code: 'search',
        type: 'catalog_search',
        collection: 'products',
        title_field: 'name',
        fields: ['name', 'category', 'description'],
        max_results: 5,
      },
    ],
    collections: {
      products: [
        product('dog', 'Dog Rain Jacket', 'Pet gear', 'Waterproof reflective rain coat for dogs.'),
        product('shell', 'Storm Shell Jacket', 'Rain jackets', 'Waterproof breathable shell.'),
        product('ski', 'Powder Ski Jacket', 'Ski jackets', 'Insulated waterproof ski jacket.'),
        product('pants', 'Powder Ski Pants', 'Ski pants', 'Insulated ski pants.'),
        product('boot', 'Trail Hiking Boot', 'Hiking boots', 'Leather boot for long hikes.'),
        product('welly', 'Puddle Rain Boot', 'Boots', 'Rubber boot for wet days.'),
      ],
    },
  };
  const runtime = newRuntime();
  const shop = agentFor(runtime, 'v1', bundle);

  it('files a record by its category before its title: a dog jacket is not among waterproof jackets', async () => {
    const r = await runtime.run(shop, turn('waterproof jacket'));
    expect(r.cards.map((c) => c.instance).sort()).toEqual(['shell', 'ski']);
    expect((await runtime.run(shop, turn('a jacket for my dog'))).cards[0]!.instance).toBe('dog');
  });

  it('answers a compound kind the catalog lacks (ski boots: ski gear and boots, no ski boot) with none, not boots', async () => {
    const r = await runtime.run(shop, turn('ski boots'));
    expect(r.cards).toEqual([]);
    expect(r.text).toMatch(/^Sorry, we don't have ski boots right now\. The closest we have is/);
    expect((await runtime.run(shop, turn('hiking boots'))).cards[0]!.instance).toBe('boot');
    expect((await runtime.run(shop, turn('ski jacket'))).cards[0]!.instance).toBe('ski');
  });
});
