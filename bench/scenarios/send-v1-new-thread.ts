/** POST /messaging/v1/messages without thread_id: every request starts a thread (shopping-assistant, runtime v1). */
import { defineScenario } from '../scenario.js';
import { LIVE_AGENT_ROUTES, messagingAgent, requireRoutes, SHOPPING_QUESTIONS } from '../lib/seed.js';

export default defineScenario({
  name: 'send-v1-new-thread',
  description: 'POST /messaging/v1/messages, new thread per turn, v1 engine (shopping-assistant); goal ≥ 0.70× turn-baseline',
  order: 40,
  baseline: 'turn-baseline',
  goal: { ratio: 0.7 },
  work: {
    service: 'the send route: token, validation, live agent (cached), engine, one write statement (named), JSON',
    baseline: 'the same token check, engine, named write statement and JSON, no framework',
  },
  available: (ctx) => requireRoutes(ctx, ['POST /messaging/v1/messages', ...LIVE_AGENT_ROUTES]),
  async seed(ctx) {
    const { headers } = await messagingAgent(ctx, 'v1', 'shopping-assistant');
    return {
      unit: 'turns',
      idReplacement: true,
      requests: [
        {
          method: 'POST',
          path: '/messaging/v1/messages',
          headers,
          bodies: SHOPPING_QUESTIONS.map((text) => ({ text, user_id: 'bench-user-[<id>]' })),
        },
      ],
    };
  },
});
