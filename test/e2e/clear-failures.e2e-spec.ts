import type { TestOrg } from '../factories/factory.js';
import { expectStatus, shopBundle } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SEND = '/messaging/v1/messages';

/** Mistakes a newcomer makes, answered with what to do instead. */
describe('clear failures', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await t.reset();
    org = await t.factory.org();
  });
  afterAll(() => t.close());

  /** A draft version of a new agent carrying `bundle`. */
  async function draft(bundle: typeof shopBundle): Promise<{ agentId: string; versionId: string }> {
    const project = expectStatus(await t.http.post('/management/v1/projects', { name: 'Providers' }, org.headers), 201, 'project').body;
    const agent = expectStatus(
      await t.http.post(`/management/v1/projects/${project.id}/agents`, { name: 'LLM agent', runtime: 'v1' }, org.headers),
      201,
      'agent',
    ).body;
    const version = expectStatus(
      await t.http.post(`/management/v1/agents/${agent.id}/versions`, { source: 'empty' }, org.headers),
      201,
      'version',
    ).body;
    expectStatus(await t.http.post(`/management/v1/agents/${agent.id}/versions/${version.id}/push`, { bundle }, org.headers), 200, 'push');
    return { agentId: agent.id, versionId: version.id };
  }

  it.each([
    ['openai', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'],
    ['anthropic', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'],
  ] as const)('publishing a %s bundle without its key is 422 naming %s; nothing goes live', async (provider, keyVar, urlVar) => {
    const { agentId, versionId } = await draft({ ...shopBundle, model: { provider, name: 'some-model' } });
    const res = await t.http.post(`/management/v1/agents/${agentId}/versions/${versionId}/publish`, undefined, org.headers);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'model.provider', message: expect.stringContaining(keyVar) }],
    });
    expect(res.body.error.message).toContain(urlVar);
    const agent = (await t.http.get(`/management/v1/agents/${agentId}`, org.headers)).body;
    expect(agent.live_version_id).toBeNull();
    const version = (await t.http.get(`/management/v1/agents/${agentId}/versions/${versionId}`, org.headers)).body;
    expect(version.status).toBe('draft');
  });

  it('publishes a builtin bundle as before', async () => {
    const { agentId, versionId } = await draft(shopBundle);
    expectStatus(
      await t.http.post(`/management/v1/agents/${agentId}/versions/${versionId}/publish`, undefined, org.headers),
      200,
      'publish',
    );
  });

  it('messaging with the organization key says how to get a token', async () => {
    const res = await t.http.post(SEND, { text: 'hi', user_id: 'u' }, org.headers);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(
      /management surface only.*POST \/management\/v1\/auth\/token.*publishable_key.*Authorization: Bearer/,
    );
  });

  it('messaging with a raw publishable key as the bearer says to exchange it first', async () => {
    const { agentId } = await draft(shopBundle);
    const key = expectStatus(await t.http.post(`/management/v1/agents/${agentId}/publishable-keys`, {}, org.headers), 201, 'key').body;
    const res = await t.http.post(SEND, { text: 'hi', user_id: 'u' }, { authorization: `Bearer ${key.publishable_key}` });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/^A publishable key is not an access token: .*POST \/management\/v1\/auth\/token/);
  });
});
