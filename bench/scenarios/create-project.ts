/** POST /management/v1/projects with the organization API key: credential check, validation, one INSERT. */
import { defineScenario } from '../scenario.js';

export default defineScenario({
  name: 'create-project',
  description: 'POST /management/v1/projects with x-organization-api-key (one insert per request)',
  order: 30,
  seed: async (ctx) => ({
    idReplacement: true,
    requests: [{ method: 'POST', path: '/management/v1/projects', headers: ctx.org.headers, body: { name: 'bench-[<id>]' } }],
  }),
});
