import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import type { TestOrg } from '../factories/factory.js';
import type { TestApp } from './test-app.js';

export interface LiveTestAgent {
  agentId: string;
  versionId: string;
  /** Bearer token from a publishable-key exchange for this agent. */
  token: string;
  headers: Record<string, string>;
}

/** Fails the test with the response when an HTTP step of a setup does not answer as expected. */
export function expectStatus<T extends { status: number; text: string }>(res: T, status: number, step: string): T {
  if (res.status !== status) throw new Error(`${step}: expected ${status}, got ${res.status}: ${res.text}`);
  return res;
}

/**
 * An agent with a published version, built through the real management API: create the agent, create a
 * draft (from a template, or empty and then push `bundle`), publish, mint a publishable key, exchange it.
 */
export async function liveAgent(
  t: TestApp,
  org: TestOrg,
  source: { template: string; runtime?: 'v1' | 'v2' } | { bundle: Bundle; runtime: 'v1' | 'v2' },
): Promise<LiveTestAgent> {
  const project = expectStatus(
    await t.http.post('/management/v1/projects', { name: 'Messaging tests' }, org.headers),
    201,
    'create project',
  ).body;
  const runtime = source.runtime ?? ('template' in source && source.template === 'knowledge-assistant' ? 'v2' : 'v1');
  const agent = expectStatus(
    await t.http.post(`/management/v1/projects/${project.id}/agents`, { name: 'Test agent', runtime }, org.headers),
    201,
    'create agent',
  ).body;
  const draftBody = 'template' in source ? { source: 'template', template: source.template } : { source: 'empty' };
  const version = expectStatus(
    await t.http.post(`/management/v1/agents/${agent.id}/versions`, draftBody, org.headers),
    201,
    'create version',
  ).body;
  if ('bundle' in source) {
    expectStatus(
      await t.http.post(`/management/v1/agents/${agent.id}/versions/${version.id}/push`, { bundle: source.bundle }, org.headers),
      200,
      'push bundle',
    );
  }
  expectStatus(
    await t.http.post(`/management/v1/agents/${agent.id}/versions/${version.id}/publish`, undefined, org.headers),
    200,
    'publish',
  );
  const key = expectStatus(
    await t.http.post(`/management/v1/agents/${agent.id}/publishable-keys`, {}, org.headers),
    201,
    'publishable key',
  ).body;
  const token = expectStatus(
    await t.http.post('/management/v1/auth/token', { grant_type: 'publishable_key', publishable_key: key.publishable_key }),
    200,
    'token',
  ).body.access_token as string;
  return { agentId: agent.id, versionId: version.id, token, headers: { authorization: `Bearer ${token}` } };
}

/** A small v1 bundle with known content: a catalog with variants, a budget parameter and rule, a guardrail. */
export const shopBundle: Bundle = {
  name: 'Trail Shop',
  welcome_message: 'Hi! I can help you find running gear.',
  welcome_suggestions: ['Show me trail shoes', 'What jackets do you have?'],
  persona: 'A friendly outdoor-gear assistant.',
  intents: [
    {
      name: 'product_search',
      examples: ['do you have running shoes', 'show me jackets', 'I am looking for trail shoes', 'find me a rain jacket'],
    },
    { name: 'order_status', examples: ['where is my order', 'track my package', 'has my order shipped'] },
  ],
  followups: { default: ['Show me bestsellers'], intents: { product_search: ['Any in size 42?', 'Show cheaper options'] } },
  guardrails: [
    { code: 'no_medical', patterns: ['\\bdiagnos', '\\bprescri'], message: 'I can only help with gear, not medical questions.' },
  ],
  parameters: [{ code: 'budget', title: 'Budget', pattern: 'under \\$?(\\d+)', type: 'number' }],
  tools: [
    {
      code: 'catalog',
      type: 'catalog_search',
      collection: 'products',
      title_field: 'name',
      fields: ['name', 'category', 'description'],
      max_results: 3,
      intents: ['product_search'],
    },
  ],
  collections: {
    products: [
      {
        id: 'sku-trail-1',
        name: 'Ridge Runner Trail Shoe',
        category: 'shoes',
        description: 'Grippy trail running shoe',
        price: 89,
        url: 'https://shop.example/p/sku-trail-1',
        variants: [
          { size: 42, color: 'blue' },
          { size: 43, color: 'black' },
        ],
      },
      {
        id: 'sku-road-2',
        name: 'Tempo Road Shoe',
        category: 'shoes',
        description: 'Light road running shoe',
        price: 129,
        url: 'https://shop.example/p/sku-road-2',
      },
      { id: 'sku-jacket-3', name: 'Storm Shell Jacket', category: 'jackets', description: 'Waterproof rain jacket', price: 179 },
    ],
  },
  rules: [
    { code: 'over_budget', when: { param: 'budget', op: '<', value: 50 }, action: 'block', message: 'Sorry, nothing here is under $50.' },
  ],
};

/** A small v2 bundle: three documents, one of which answers the returns question. */
export const helpBundle: Bundle = {
  name: 'Help Center',
  welcome_message: 'Ask me anything about orders and returns.',
  followups: { default: ['How long does shipping take?'] },
  knowledge: [
    {
      id: 'returns',
      title: 'Returns policy',
      url: 'https://help.example/returns',
      text: 'You can return any unworn item within 30 days of delivery for a full refund. Start a return from your order page and print the prepaid label.',
    },
    {
      id: 'shipping',
      title: 'Shipping times',
      url: 'https://help.example/shipping',
      text: 'Standard shipping takes 3 to 5 business days. Express shipping arrives in 1 to 2 business days.',
    },
    {
      id: 'warranty',
      title: 'Warranty',
      url: 'https://help.example/warranty',
      text: 'Footwear carries a one-year warranty against manufacturing defects.',
    },
  ],
};
