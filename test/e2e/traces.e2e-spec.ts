import type { TestOrg } from '../factories/factory.js';
import { helpBundle, liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SEND = '/messaging/v1/messages';

describe('traces', () => {
  let t: TestApp;
  let org: TestOrg;
  let shop: LiveTestAgent;
  let help: LiveTestAgent;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await t.reset();
    org = await t.factory.org();
    shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    help = await liveAgent(t, org, { bundle: helpBundle, runtime: 'v2' });
  });
  afterAll(() => t.close());

  const send = async (agent: LiveTestAgent, text: string, threadId?: string) => {
    const res = await t.http.post(SEND, { text, user_id: 'u1', thread_id: threadId, include_trace: true }, agent.headers);
    if (res.status !== 200) throw new Error(`send: ${res.status} ${res.text}`);
    return res.body as { thread_id: string; interaction_id: string; message: { trace_info: Record<string, unknown>; created_at: string } };
  };

  describe('GET /management/v1/threads/{threadId}/trace', () => {
    it("returns every interaction's stored trace, oldest first, each with runtime, interaction_id and created_at", async () => {
      const first = await send(shop, 'I am looking for trail shoes');
      const second = await send(shop, 'show me jackets', first.thread_id);
      const res = await t.http.get(`/management/v1/threads/${first.thread_id}/trace`, org.headers);
      expect(res.status).toBe(200);
      expect(res.body.results).toHaveLength(2);
      const [a, b] = res.body.results;
      expect(a).toEqual({
        ...first.message.trace_info,
        interaction_id: first.interaction_id,
        thread_id: first.thread_id,
        version_id: shop.versionId,
        version_tag: 'v1.1',
        created_at: first.message.created_at,
      });
      expect(b).toMatchObject({ runtime: 'v1', interaction_id: second.interaction_id, input: { message: 'show me jackets' } });
      expect(res.body.meta.has_more).toBe(false);

      const desc = await t.http.get(`/management/v1/threads/${first.thread_id}/trace?sort_order=desc&page[size]=1`, org.headers);
      expect(desc.body.results.map((r: { interaction_id: string }) => r.interaction_id)).toEqual([second.interaction_id]);
      expect(desc.body.meta.has_more).toBe(true);
      const next = await t.http.get(desc.body.links.next, org.headers);
      expect(next.body.results.map((r: { interaction_id: string }) => r.interaction_id)).toEqual([first.interaction_id]);
    });

    it('returns runtime-v2 traces with their own sections', async () => {
      const turn = await send(help, 'How do I return an item?');
      const res = await t.http.get(`/management/v1/threads/${turn.thread_id}/trace`, org.headers);
      expect(res.status).toBe(200);
      expect(res.body.results[0]).toMatchObject({ runtime: 'v2', interaction_id: turn.interaction_id, narrative: expect.any(String) });
      expect(res.body.results[0]).toHaveProperty('passages_used');
      expect(res.body.results[0]).toHaveProperty('citations_used');
    });

    it('is 404 not_found for a thread of another agent (agent_id) and of another organization', async () => {
      const turn = await send(shop, 'show me jackets');
      const mine = await t.http.get(`/management/v1/threads/${turn.thread_id}/trace?agent_id=${shop.agentId}`, org.headers);
      expect(mine.status).toBe(200);
      const otherAgent = await t.http.get(`/management/v1/threads/${turn.thread_id}/trace?agent_id=${help.agentId}`, org.headers);
      expect(otherAgent.status).toBe(404);
      expect(otherAgent.body.error.code).toBe('not_found');
      const stranger = await t.factory.org();
      expect((await t.http.get(`/management/v1/threads/${turn.thread_id}/trace`, stranger.headers)).status).toBe(404);
      expect((await t.http.get(`/management/v1/threads/${'f'.repeat(24)}/trace`, org.headers)).status).toBe(404);
    });

    it('rejects malformed input with 422 and missing credentials with 401', async () => {
      const turn = await send(shop, 'show me jackets');
      const base = `/management/v1/threads/${turn.thread_id}/trace`;
      for (const [query, field] of [
        ['page[size]=0', 'page[size]'],
        ['page[size]=101', 'page[size]'],
        ['sort_order=sideways', 'sort_order'],
        ['agent_id=xyz', 'agent_id'],
        ['page[after]=zzz', 'page[after]'],
      ]) {
        const res = await t.http.get(`${base}?${query}`, org.headers);
        expect(res.status).toBe(422);
        expect(res.body.error.details[0].field).toBe(field);
      }
      const bad = await t.http.get('/management/v1/threads/nope/trace', org.headers);
      expect(bad.status).toBe(422);
      expect(bad.body.error.details[0].field).toBe('threadId');
      expect((await t.http.get(base)).status).toBe(401);
    });
  });

  describe('GET /management/v1/interactions/{interactionId}/trace', () => {
    it('returns a runtime-v1 trace without thread_id (and with the right one)', async () => {
      const turn = await send(shop, 'I am looking for trail shoes');
      const res = await t.http.get(`/management/v1/interactions/${turn.interaction_id}/trace`, org.headers);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...turn.message.trace_info,
        interaction_id: turn.interaction_id,
        thread_id: turn.thread_id,
        version_id: shop.versionId,
        version_tag: 'v1.1',
        created_at: turn.message.created_at,
      });
      const withThread = await t.http.get(
        `/management/v1/interactions/${turn.interaction_id}/trace?thread_id=${turn.thread_id}`,
        org.headers,
      );
      expect(withThread.status).toBe(200);
    });

    it('requires thread_id for a runtime-v2 interaction (422 naming it) and answers with it', async () => {
      const turn = await send(help, 'How long does shipping take?');
      const missing = await t.http.get(`/management/v1/interactions/${turn.interaction_id}/trace`, org.headers);
      expect(missing.status).toBe(422);
      expect(missing.body.error.details).toEqual([{ field: 'thread_id', message: expect.any(String) }]);
      const res = await t.http.get(`/management/v1/interactions/${turn.interaction_id}/trace?thread_id=${turn.thread_id}`, org.headers);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ runtime: 'v2', interaction_id: turn.interaction_id, thread_id: turn.thread_id });
      expect(res.body.narrative).toBe((turn.message.trace_info as { narrative: string }).narrative);
    });

    it("is 404 for a thread_id that is not the interaction's, another agent, another organization", async () => {
      const v2 = await send(help, 'How long does shipping take?');
      const v1 = await send(shop, 'show me jackets');
      expect(
        (await t.http.get(`/management/v1/interactions/${v2.interaction_id}/trace?thread_id=${v1.thread_id}`, org.headers)).status,
      ).toBe(404);
      expect(
        (await t.http.get(`/management/v1/interactions/${v1.interaction_id}/trace?thread_id=${v2.thread_id}`, org.headers)).status,
      ).toBe(404);
      const otherAgent = await t.http.get(`/management/v1/interactions/${v1.interaction_id}/trace?agent_id=${help.agentId}`, org.headers);
      expect(otherAgent.status).toBe(404);
      expect(otherAgent.body.error.code).toBe('not_found');
      expect(
        (await t.http.get(`/management/v1/interactions/${v1.interaction_id}/trace?agent_id=${shop.agentId}`, org.headers)).status,
      ).toBe(200);
      const stranger = await t.factory.org();
      expect((await t.http.get(`/management/v1/interactions/${v1.interaction_id}/trace`, stranger.headers)).status).toBe(404);
      expect(
        (await t.http.get(`/management/v1/interactions/${v2.interaction_id}/trace?thread_id=${v2.thread_id}`, stranger.headers)).status,
      ).toBe(404);
      expect((await t.http.get(`/management/v1/interactions/${'0'.repeat(24)}/trace`, org.headers)).status).toBe(404);
    });

    it('rejects malformed ids with 422 and missing credentials with 401', async () => {
      const turn = await send(shop, 'show me jackets');
      const bad = await t.http.get('/management/v1/interactions/123/trace', org.headers);
      expect(bad.status).toBe(422);
      expect(bad.body.error.details[0].field).toBe('interactionId');
      const badThread = await t.http.get(`/management/v1/interactions/${turn.interaction_id}/trace?thread_id=x`, org.headers);
      expect(badThread.status).toBe(422);
      expect(badThread.body.error.details[0].field).toBe('thread_id');
      expect((await t.http.get(`/management/v1/interactions/${turn.interaction_id}/trace`)).status).toBe(401);
      expect(
        (await t.http.get(`/management/v1/interactions/${turn.interaction_id}/trace`, { 'x-organization-api-key': 'nope' })).status,
      ).toBe(401);
    });
  });
});
