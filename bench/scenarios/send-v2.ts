/** POST /messaging/v1/messages to a v2 (grounded, knowledge-assistant) agent, new thread per turn. */
import { defineScenario } from '../scenario.js';
import { KNOWLEDGE_QUESTIONS, LIVE_AGENT_ROUTES, messagingAgent, requireRoutes } from '../lib/seed.js';

export default defineScenario({
  name: 'send-v2',
  description: 'POST /messaging/v1/messages, new thread per turn, v2 engine (knowledge-assistant); goal ≥ 0.70× turn-baseline',
  order: 42,
  baseline: 'turn-baseline',
  goal: { ratio: 0.7 },
  work: {
    service: 'the send route on a v2 agent: token, validation, engine, one named write, JSON',
    baseline: 'the same engine, named write and JSON, no framework',
  },
  available: (ctx) => requireRoutes(ctx, ['POST /messaging/v1/messages', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    const { headers } = await messagingAgent(ctx, 'v2', 'knowledge-assistant');
    return {
      unit: 'turns',
      idReplacement: true,
      requests: [
        {
          method: 'POST',
          path: '/messaging/v1/messages',
          headers,
          bodies: KNOWLEDGE_QUESTIONS.map((text) => ({ text, user_id: 'bench-user-[<id>]' })),
        },
      ],
    };
  },
});
