import { BLANK_TEMPLATE } from './templates/blank.template.js';
import { KNOWLEDGE_ASSISTANT_TEMPLATE } from './templates/knowledge-assistant.template.js';
import { SHOPPING_ASSISTANT_TEMPLATE } from './templates/shopping-assistant.template.js';
import { TEMPLATES } from './templates/templates.registry.js';
import { bundleDigest, canonicalJson } from './bundle-digest.js';
import { compileTenantPattern } from './bundle-pattern.js';
import { pointerToField } from './bundle-pointer.js';
import { BundleValidator, MAX_BUNDLE_PATTERNS } from './bundle.validator.js';

describe('BundleValidator', () => {
  const validator = new BundleValidator();

  it.each(TEMPLATES.map((t) => [t.id, t] as const))('accepts the %s template', (_id, template) => {
    expect(validator.check(template.bundle)).toEqual([]);
  });

  it('ships realistic templates', () => {
    expect(TEMPLATES.map((t) => t.id)).toEqual(['blank', 'shopping-assistant', 'knowledge-assistant']);
    expect(BLANK_TEMPLATE.bundle.model?.provider).toBe('builtin');
    const shop = SHOPPING_ASSISTANT_TEMPLATE.bundle;
    expect(SHOPPING_ASSISTANT_TEMPLATE.runtime).toBe('v1');
    expect(shop.collections?.products?.length).toBeGreaterThanOrEqual(20);
    expect(shop.collections?.products?.every((p) => (p.variants?.length ?? 0) > 0)).toBe(true);
    expect(shop.tools?.[0]).toMatchObject({ type: 'catalog_search', collection: 'products' });
    expect(shop.parameters?.map((p) => p.code)).toContain('budget');
    expect(shop.intents?.every((i) => i.examples.length >= 4)).toBe(true);
    const knowledge = KNOWLEDGE_ASSISTANT_TEMPLATE.bundle.knowledge ?? [];
    expect(KNOWLEDGE_ASSISTANT_TEMPLATE.runtime).toBe('v2');
    expect(knowledge.length).toBeGreaterThanOrEqual(8);
    expect(knowledge.every((d) => d.url && d.text.split('\n\n').length >= 2)).toBe(true);
  });

  it('extracts the budget from a message with the template pattern', () => {
    const budget = SHOPPING_ASSISTANT_TEMPLATE.bundle.parameters!.find((p) => p.code === 'budget')!;
    expect(compileTenantPattern(budget.pattern).exec('a rain jacket under $250 please')?.[1]).toBe('250');
  });

  it('points each schema error into the bundle', () => {
    const details = validator.check({
      name: 'x',
      rules: [
        { code: 'ok', when: { param: 'budget', op: '<', value: 5 }, action: 'block', message: 'm' },
        { code: 'bad', when: { param: 'budget', op: '~' }, action: 'block', message: 'm' },
      ],
      knowledge: [
        { id: 'a', title: 'A', text: 'x' },
        { id: 'b', title: 'B', text: 'x' },
        { id: 'c', title: 'C', text: 42 },
      ],
      bogus: true,
    });
    const fields = details.map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['bundle.rules[1].when.op', 'bundle.knowledge[2].text', 'bundle.bogus']));
    expect(fields.every((f) => f.startsWith('bundle'))).toBe(true);
  });

  it('reports missing required fields and wrong value types for comparisons', () => {
    const details = validator.check({
      guardrails: [{ code: 'g', patterns: ['x'] }],
      rules: [{ code: 'r', when: { param: 'budget', op: '>', value: 'ten' }, action: 'ask', message: 'm' }],
    });
    expect(details).toEqual(
      expect.arrayContaining([
        { field: 'bundle.guardrails[0].message', message: 'is required' },
        expect.objectContaining({ field: 'bundle.rules[0].when.value' }),
      ]),
    );
    expect(details.some((d) => d.message.includes('"then"'))).toBe(false);
  });

  it('rejects regular expressions that do not compile, duplicate codes and dangling references', () => {
    const details = validator.check({
      guardrails: [{ code: 'g', patterns: ['ok', '(unclosed'], message: 'no' }],
      parameters: [
        { code: 'p', title: 'P', pattern: '[a-', type: 'string' },
        { code: 'p', title: 'P2', pattern: 'x', type: 'string' },
      ],
      intents: [{ name: 'buy', examples: ['buy'] }],
      tools: [
        {
          code: 't',
          type: 'catalog_search',
          collection: 'missing',
          title_field: 'name',
          fields: ['name'],
          max_results: 3,
          intents: ['buy', 'sell'],
        },
      ],
      collections: { products: [{ id: '1' }] },
    });
    expect(details.map((d) => d.field)).toEqual(
      expect.arrayContaining([
        'bundle.guardrails[0].patterns[1]',
        'bundle.parameters[0].pattern',
        'bundle.parameters[1].code',
        'bundle.tools[0].collection',
        'bundle.tools[0].intents[1]',
      ]),
    );
  });

  it('accepts only patterns the linear-time engine (RE2 syntax) can run', () => {
    const details = validator.check({
      guardrails: [
        { code: 'g', patterns: ['^(a+)+$', '(a)\\1', '(?=x)', '\\bok\\b'], message: 'no' },
        { code: 'h', patterns: ['(?<=a)b', 'x{1001}', '(?<name>\\d+)'], message: 'no' },
      ],
      parameters: [
        { code: 'p', title: 'P', pattern: 'foo(?!bar)', type: 'string' },
        { code: 'q', title: 'Q', pattern: '(?<n>a)\\k<n>', type: 'string' },
        { code: 'r', title: 'R', pattern: '(?:under|below)\\s*\\$?(\\d+)', type: 'number' },
      ],
    });
    expect(details.map((d) => d.field)).toEqual([
      'bundle.guardrails[0].patterns[1]',
      'bundle.guardrails[0].patterns[2]',
      'bundle.guardrails[1].patterns[0]',
      'bundle.guardrails[1].patterns[1]',
      'bundle.parameters[0].pattern',
      'bundle.parameters[1].pattern',
    ]);
    expect(details[0]!.message).toMatch(/RE2/);
  });

  it('caps the patterns of a bundle in all, naming the first one over the cap', () => {
    const guardrails = Array.from({ length: 3 }, (_, i) => ({
      code: `g${i}`,
      patterns: Array.from({ length: 80 }, (_, j) => `w${i}x${j}`),
      message: 'no',
    }));
    const parameters = Array.from({ length: 16 }, (_, i) => ({
      code: `p${i}`,
      title: 'P',
      pattern: `(\\d+)p${i}`,
      type: 'number' as const,
    }));
    expect(validator.check({ guardrails, parameters })).toEqual([]); // 240 + 16 = 256
    const over = validator.check({ guardrails, parameters: [...parameters, { code: 'extra', title: 'E', pattern: 'e', type: 'string' }] });
    expect(over).toEqual([{ field: 'bundle.parameters[16].pattern', message: expect.stringContaining(`at most ${MAX_BUNDLE_PATTERNS}`) }]);
  });

  it('allows x_ extension fields and open catalog records', () => {
    expect(validator.check({ x_owner: { team: 'growth' }, collections: { products: [{ id: '1', colour: 'red', price: 3 }] } })).toEqual([]);
  });

  it('throws a 422 validation_error from assertValid', () => {
    expect(() => validator.assertValid({ name: '' })).toThrow(expect.objectContaining({ status: 422, code: 'validation_error' }));
  });

  it('maps JSON pointers to wire paths', () => {
    expect(pointerToField('/rules/1/when/op')).toBe('bundle.rules[1].when.op');
    expect(pointerToField('/collections/my products/0/id')).toBe('bundle.collections["my products"][0].id');
  });
});

describe('bundleDigest', () => {
  it('ignores key order and is sha256 of the canonical JSON', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}');
    expect(bundleDigest({ b: 1, a: 2 })).toBe(bundleDigest({ a: 2, b: 1 }));
    expect(bundleDigest({ a: 1 })).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(bundleDigest({ a: 1 })).not.toBe(bundleDigest({ a: 2 }));
  });
});

describe('BundleValidator: mcp_servers', () => {
  const validator = new BundleValidator();
  const server = { name: 'orders', url: 'https://mcp.example.com/mcp', allowed_tools: ['lookup_order'] };

  it('accepts servers with secret references in their headers', () => {
    expect(
      validator.check({ mcp_servers: [{ ...server, headers: { Authorization: 'Bearer {{secret:TOKEN}}' }, timeout_ms: 500 }] }),
    ).toEqual([]);
  });

  it('names each problem: URL policy, reserved and duplicate headers, bad references, names too long or taken twice', () => {
    const fields = validator
      .check({
        mcp_servers: [
          { ...server, url: 'http://10.0.0.1/mcp', headers: { 'Mcp-Session-Id': 'x', A: '{{secret:bad-name}}', a: 'y' } },
          { ...server, allowed_tools: ['lookup__order', 't'.repeat(60)] },
          { ...server, name: 'orders__lookup', allowed_tools: ['order'] },
        ],
      })
      .map((d) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'bundle.mcp_servers[0].url',
        'bundle.mcp_servers[0].headers["Mcp-Session-Id"]',
        'bundle.mcp_servers[0].headers.A',
        'bundle.mcp_servers[0].headers.a',
        'bundle.mcp_servers[1].allowed_tools[1]',
        'bundle.mcp_servers[1].name',
        'bundle.mcp_servers[2].allowed_tools[0]',
      ]),
    );
  });
});
