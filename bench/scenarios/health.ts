/** GET /health: the cheapest route; its ratio to the bare Fastify baseline is the framework's overhead. */
import { defineScenario } from '../scenario.js';

export default defineScenario({
  name: 'health',
  description: 'GET /health (liveness): framework overhead against the bare Fastify baseline; goal ≥ 0.50×',
  order: 10,
  goal: { ratio: 0.5 },
  work: {
    service: '`GET /health` through the whole pipeline (CORS, security headers, metrics, Nest)',
    baseline: 'the same JSON from a bare Fastify route',
  },
  seed: async () => ({ requests: [{ method: 'GET', path: '/health' }] }),
});
