/**
 * POST /messaging/v1/messages to a v2 agent in agent mode (docs/agents.md) against an instantly answering fake model
 * (bench/fake-model-server.ts): each turn is three `search_knowledge` steps and four model calls, paired with compose
 * turns of the same knowledge and the same model (one model call each) on the same service. The service CPU per step
 * is (agent turn − compose turn) ÷ 3, an upper bound of the loop's own cost: it includes the three extra model calls'
 * client work. Issue 30's goal: at most 300 µs of service CPU per step beyond the model call.
 */
import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import type { BenchContext } from '../scenario.js';
import { defineScenario } from '../scenario.js';
import { accessToken, createProject, LIVE_AGENT_ROUTES, publishableKey, requireRoutes } from '../lib/seed.js';

const STEPS = 3;

const KNOWLEDGE: Bundle['knowledge'] = [
  {
    id: 'returns',
    title: 'Returns policy',
    url: 'https://help.example/returns',
    text: 'You can return any unworn item within 30 days of delivery for a full refund. Start a return from your order page and print the prepaid label. Refunds reach the original payment method within 5 business days.',
  },
  {
    id: 'shipping',
    title: 'Shipping times',
    text: 'Standard shipping takes 3 to 5 business days. Express shipping arrives in 1 to 2 business days.',
  },
  { id: 'warranty', title: 'Warranty', text: 'Footwear carries a one-year warranty against manufacturing defects.' },
];

/** A live v2 agent with this bundle (pushed and published through the API) and its messaging headers. */
async function liveAgent(ctx: BenchContext, projectId: string, bundle: Bundle): Promise<Record<string, string>> {
  const headers = ctx.org.headers;
  const agent = await ctx.request<{ id: string }>('POST', `/management/v1/projects/${projectId}/agents`, {
    headers,
    body: { name: `bench-${bundle.name}`, runtime: 'v2' },
  });
  const version = await ctx.request<{ id: string }>('POST', `/management/v1/agents/${agent.body.id}/versions`, {
    headers,
    body: { source: 'empty' },
  });
  await ctx.request('POST', `/management/v1/agents/${agent.body.id}/versions/${version.body.id}/push`, { headers, body: { bundle } });
  await ctx.request('POST', `/management/v1/agents/${agent.body.id}/versions/${version.body.id}/publish`, { headers });
  return { authorization: `Bearer ${await accessToken(ctx, await publishableKey(ctx, agent.body.id))}` };
}

export default defineScenario({
  name: 'agent-loop',
  description: `POST /messaging/v1/messages, agent mode, ${STEPS} tool steps per turn against an instant fake model, paired with compose turns`,
  order: 44,
  baseline: 'self',
  work: {
    service: `agent-mode turns: ${STEPS + 1} model calls and ${STEPS} search_knowledge steps, checks, trace, one write`,
    baseline: 'compose turns of the same knowledge and model: one model call, same service',
  },
  available: (ctx) =>
    requireRoutes(ctx, [
      'POST /management/v1/agents/{agentId}/versions/{versionId}/push',
      'POST /messaging/v1/messages',
      ...LIVE_AGENT_ROUTES,
    ]),
  async seed(ctx) {
    const projectId = await createProject(ctx);
    const agent = await liveAgent(ctx, projectId, {
      name: 'agent',
      knowledge: KNOWLEDGE,
      model: { provider: 'openai', name: 'bench', mode: 'agent' },
    });
    const compose = await liveAgent(ctx, projectId, {
      name: 'compose',
      knowledge: KNOWLEDGE,
      model: { provider: 'openai', name: 'bench' },
    });
    const body = (text: string) => ({ text, user_id: 'bench-user-[<id>]' });
    return {
      unit: 'turns',
      idReplacement: true,
      requests: [{ method: 'POST', path: '/messaging/v1/messages', headers: agent, body: body(`How do returns work? [steps:${STEPS}]`) }],
      baseline: {
        label: 'compose turns (one model call)',
        requests: [{ method: 'POST', path: '/messaging/v1/messages', headers: compose, body: body('How do returns work?') }],
      },
    };
  },
});
