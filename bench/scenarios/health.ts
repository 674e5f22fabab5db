/** GET /health: the cheapest route; its ratio to the bare Fastify baseline is the framework's overhead. */
import { defineScenario } from '../scenario.js';

export default defineScenario({
  name: 'health',
  description: 'GET /health (liveness): framework overhead against the bare Fastify baseline; goal ≥ 0.50×',
  order: 10,
  goal: { ratio: 0.5 },
  seed: async () => ({ requests: [{ method: 'GET', path: '/health' }] }),
});
