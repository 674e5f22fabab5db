/**
 * "Try a question" (POST …/versions/{versionId}/knowledge/search, docs/knowledge.md): what a version's knowledge
 * would answer a question from, without a turn. And the trace's `model` section: which provider, model and endpoint
 * wrote a reply (docs/engines.md).
 */
import type { TestOrg } from '../factories/factory.js';
import { expectStatus } from '../support/agents.js';
import { startFakeOpenAI, type FakeServer } from '../support/fake-openai-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const FILES = [
  {
    name: 'returns.md',
    content:
      '# Returns\n\nYou can return any item within 30 days of delivery.\n\n## Refunds\n\nRefunds reach your card within 5 business days after we receive the parcel.\n',
  },
  {
    name: 'shipping.md',
    content: '# Shipping\n\nOrders over 50 euros ship for free.\n\n## Express\n\nExpress delivery takes one working day.\n',
  },
  {
    name: 'account.md',
    content: '# Account\n\n## Password\n\nTo reset your password, open Settings, choose Security and press Reset password.\n',
  },
];

async function upload(t: TestApp, path: string, headers: Record<string, string>) {
  const form = new FormData();
  for (const f of FILES) form.append('files', new Blob([f.content], { type: 'text/markdown' }), f.name);
  const res = await fetch(`${t.baseUrl}${path}`, { method: 'POST', headers, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('POST /management/v1/agents/{agentId}/versions/{versionId}/knowledge/search', () => {
  let t: TestApp;
  let org: TestOrg;
  let agentId: string;
  let versionId: string;
  let path: string;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    org = await t.factory.org();
    const project = expectStatus(await t.http.post('/management/v1/projects', { name: 'Help' }, org.headers), 201, 'project').body;
    agentId = expectStatus(
      await t.http.post(`/management/v1/projects/${project.id}/agents`, { name: 'Help desk', runtime: 'v2' }, org.headers),
      201,
      'agent',
    ).body.id;
    versionId = expectStatus(
      await t.http.post(`/management/v1/agents/${agentId}/versions`, { source: 'empty' }, org.headers),
      201,
      'version',
    ).body.id;
    expect((await upload(t, `/management/v1/agents/${agentId}/versions/${versionId}/knowledge`, org.headers)).status).toBe(200);
    path = `/management/v1/agents/${agentId}/versions/${versionId}/knowledge/search`;
  });

  it('answers with the passages a reply would use, on the current (unpublished) revision, recording nothing', async () => {
    const res = expectStatus(await t.http.post(path, { query: 'How do I reset my password?' }, org.headers), 200, 'search');
    expect(res.body).toMatchObject({ version_id: versionId, version_tag: 'v1.1', answerable: true });
    expect(res.body.results[0]).toMatchObject({ rank: 1, document_id: 'account.md:password', title: 'Account › Password' });
    expect(res.body.results[0].text).toContain('Reset password');
    expect(res.body.considered.map((c: { document_id: string }) => c.document_id)).toContain('account.md:password');
    expect(res.body.narrative).toEqual(expect.any(String));
    // No turn: no thread, no usage.
    const threads = expectStatus(await t.http.get(`/management/v1/threads?agent_id=${agentId}`, org.headers), 200, 'threads').body;
    expect(threads.results).toEqual([]);
    const usage = expectStatus(await t.http.get(`/management/v1/agents/${agentId}/usage`, org.headers), 200, 'usage').body;
    expect(usage.interaction_count).toBe(0);
  });

  it('says the agent would decline when nothing covers the question', async () => {
    const res = expectStatus(
      await t.http.post(path, { query: 'Which telescope suits astrophotography of nebulae?' }, org.headers),
      200,
      'search',
    );
    expect(res.body).toMatchObject({ answerable: false, results: [] });
  });

  it('answers 401 without or with a wrong credential, 404 for another organization, 422 for a bad body or id', async () => {
    expect((await t.http.post(path, { query: 'refunds' })).status).toBe(401);
    expect((await t.http.post(path, { query: 'refunds' }, { 'x-organization-api-key': 'oak_wrong' })).status).toBe(401);
    const other = await t.factory.org();
    const hidden = await t.http.post(path, { query: 'refunds' }, other.headers);
    expect([hidden.status, hidden.body.error.code]).toEqual([404, 'not_found']);
    for (const [body, field] of [
      [{}, 'query'],
      [{ query: '' }, 'query'],
      [{ query: 'x'.repeat(2001) }, 'query'],
      [{ query: 'refunds', agent_id: agentId }, 'agent_id'],
    ] as const) {
      const res = await t.http.post(path, body, org.headers);
      expect([res.status, res.body.error.code]).toEqual([422, 'validation_error']);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const badId = await t.http.post(`/management/v1/agents/${agentId}/versions/nope/knowledge/search`, { query: 'refunds' }, org.headers);
    expect(badId.status).toBe(422);
    expect(badId.body.error.details.map((d: { field: string }) => d.field)).toContain('versionId');
  });
});

describe('trace.model: which provider, model and endpoint wrote the reply', () => {
  let t: TestApp;
  let fake: FakeServer;
  let org: TestOrg;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'test-key' });
    org = await t.factory.org();
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  async function liveAgent(model?: Record<string, unknown>) {
    const project = expectStatus(await t.http.post('/management/v1/projects', { name: 'Models' }, org.headers), 201, 'project').body;
    const agent = expectStatus(
      await t.http.post(`/management/v1/projects/${project.id}/agents`, { name: 'Writer', runtime: 'v2' }, org.headers),
      201,
      'agent',
    ).body;
    const version = expectStatus(
      await t.http.post(`/management/v1/agents/${agent.id}/versions`, { source: 'template', template: 'knowledge-assistant' }, org.headers),
      201,
      'version',
    ).body;
    if (model) {
      const { bundle } = (await t.http.get(`/management/v1/agents/${agent.id}/versions/${version.id}/pull`, org.headers)).body;
      expectStatus(
        await t.http.post(`/management/v1/agents/${agent.id}/versions/${version.id}/push`, { bundle: { ...bundle, model } }, org.headers),
        200,
        'push',
      );
    }
    expectStatus(await t.http.post(`/management/v1/agents/${agent.id}/versions/${version.id}/publish`, {}, org.headers), 200, 'publish');
    const key = expectStatus(await t.http.post(`/management/v1/agents/${agent.id}/publishable-keys`, {}, org.headers), 201, 'key').body;
    const token = (await t.http.post('/management/v1/auth/token', { grant_type: 'publishable_key', publishable_key: key.publishable_key }))
      .body.access_token as string;
    return { bearer: { authorization: `Bearer ${token}` } };
  }

  it('names the openai model and its endpoint when the provider wrote the reply', async () => {
    const { bearer } = await liveAgent({ provider: 'openai', name: 'gpt-test-mini' });
    const res = expectStatus(
      await t.http.post('/messaging/v1/messages', { text: 'How do I export all my notes?', user_id: 'u1', include_trace: true }, bearer),
      200,
      'send',
    );
    const endpoint = `${new URL(fake.url).origin}${new URL(fake.url).pathname.replace(/\/$/, '')}`;
    expect(res.body.message.trace_info.model).toEqual({ provider: 'openai', name: 'gpt-test-mini', endpoint, writer: 'openai' });
    expect(JSON.stringify(res.body)).not.toContain('test-key');
  });

  it('says builtin when the bundle names no provider, and builtin wrote it', async () => {
    const { bearer } = await liveAgent();
    const res = expectStatus(
      await t.http.post('/messaging/v1/messages', { text: 'How do I export all my notes?', user_id: 'u2', include_trace: true }, bearer),
      200,
      'send',
    );
    expect(res.body.message.trace_info.model).toEqual({ provider: 'builtin', name: null, endpoint: null, writer: 'builtin' });
  });
});
