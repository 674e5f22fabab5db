/**
 * POST /management/v1/auth/token with a publishable key: key lookup by hash, agent check, JWT signing.
 * The agent and its key are inserted with SQL (as test/factories/factory.ts does) so that the scenario runs before
 * the agents and key-management routes exist.
 */
import { defineScenario } from '../scenario.js';
import { createProject, insertAgent, insertPublishableKey } from '../lib/seed.js';

export default defineScenario({
  name: 'token-exchange',
  description: 'POST /management/v1/auth/token, grant_type=publishable_key',
  order: 20,
  async seed(ctx) {
    const projectId = await createProject(ctx);
    const agentId = await insertAgent(ctx, projectId);
    const key = await insertPublishableKey(ctx, agentId);
    const body = { grant_type: 'publishable_key', publishable_key: key };
    await ctx.request('POST', '/management/v1/auth/token', { body }); // fails the seed if the key is not accepted
    return { requests: [{ method: 'POST', path: '/management/v1/auth/token', body }] };
  },
});
