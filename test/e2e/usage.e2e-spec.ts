import type { TestOrg } from '../factories/factory.js';
import { liveAgent, shopBundle } from '../support/agents.js';
import { insertInteraction, insertThread, type ThreadOwner } from '../support/threads.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SEND = '/messaging/v1/messages';
const ZERO = { interaction_count: 0, input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, reasoning_tokens: 0, total_tokens: 0 };

interface Turn {
  at: Date;
  input: number;
  output: number;
  cache: number;
  reasoning: number;
}

/** What the usage of these turns over [from, to] must be, counted the slow way. */
function expected(turns: Turn[], from?: string, to?: string) {
  const lo = from ? Date.parse(from) : -Infinity;
  const hi = to ? Date.parse(to) : Infinity;
  const inRange = turns.filter((turn) => turn.at.getTime() >= lo && turn.at.getTime() <= hi);
  const sum = (pick: (turn: Turn) => number) => inRange.reduce((total, turn) => total + pick(turn), 0);
  const usage = {
    interaction_count: inRange.length,
    input_tokens: sum((x) => x.input),
    output_tokens: sum((x) => x.output),
    cache_read_tokens: sum((x) => x.cache),
    reasoning_tokens: sum((x) => x.reasoning),
  };
  return { ...usage, total_tokens: usage.input_tokens + usage.output_tokens + usage.cache_read_tokens + usage.reasoning_tokens };
}

describe('usage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('from real sends', () => {
    let org: TestOrg;
    beforeEach(async () => {
      await t.reset();
      org = await t.factory.org();
    });

    it("counts an agent's interactions and tokens; the project sums its agents", async () => {
      const shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      const replies = [];
      for (const text of ['I am looking for trail shoes', 'show me jackets', 'where is my order']) {
        const res = await t.http.post(SEND, { text, user_id: 'u1' }, shop.headers);
        expect(res.status).toBe(200);
        replies.push(res.body.message);
      }
      const input = replies.reduce((n, m) => n + m.input_tokens, 0);
      const output = replies.reduce((n, m) => n + m.output_tokens, 0);
      const res = await t.http.get(`/management/v1/agents/${shop.agentId}/usage`, org.headers);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        interaction_count: 3,
        input_tokens: input,
        output_tokens: output,
        cache_read_tokens: 0,
        reasoning_tokens: 0,
        total_tokens: input + output,
      });

      const agent = (await t.http.get(`/management/v1/agents/${shop.agentId}`, org.headers)).body;
      const project = await t.http.get(`/management/v1/projects/${agent.project_id}/usage`, org.headers);
      expect(project.status).toBe(200);
      expect(project.body).toEqual(res.body);

      const future = await t.http.get(`/management/v1/agents/${shop.agentId}/usage?created_from=2099-01-01T00:00:00Z`, org.headers);
      expect(future.body).toEqual(ZERO);
    });
  });

  describe('date ranges over interactions spread across days', () => {
    let org: TestOrg;
    let a: ThreadOwner;
    let b: ThreadOwner;
    let other: ThreadOwner;
    const turnsA: Turn[] = [];
    const turnsB: Turn[] = [];

    beforeAll(async () => {
      await t.reset();
      org = await t.factory.org();
      const project = await t.factory.project(org);
      const agentA = await t.factory.agent(org, { project });
      const agentB = await t.factory.agent(org, { project });
      a = { organizationId: org.id, projectId: project.id, agentId: agentA.id };
      b = { organizationId: org.id, projectId: project.id, agentId: agentB.id };
      const stranger = await t.factory.org();
      const strangerAgent = await t.factory.agent(stranger);
      other = { organizationId: stranger.id, projectId: strangerAgent.projectId, agentId: strangerAgent.id };

      // Turns every 7 hours over ~12 days, with edge instants at midnight and one millisecond before it.
      const instants: Date[] = [];
      for (let i = 0; i < 40; i += 1) instants.push(new Date(Date.UTC(2026, 2, 1, 3) + i * 7 * 3_600_000));
      instants.push(new Date('2026-03-05T00:00:00.000Z'), new Date('2026-03-05T23:59:59.999Z'), new Date('2026-03-08T00:00:00.000Z'));
      const threadA = await insertThread(t, a);
      const threadB = await insertThread(t, b);
      const threadOther = await insertThread(t, other);
      for (const [i, at] of instants.entries()) {
        const turn = { at, input: 10 + i, output: 5 + (i % 7), cache: i % 3, reasoning: i % 2 ? 4 : 0 };
        const owner = i % 4 === 0 ? b : a;
        (owner === a ? turnsA : turnsB).push(turn);
        await insertInteraction(t, owner, owner === a ? threadA : threadB, {
          createdAt: at,
          inputTokens: turn.input,
          outputTokens: turn.output,
          cacheReadTokens: turn.cache,
          reasoningTokens: turn.reasoning,
        });
        await insertInteraction(t, other, threadOther, { createdAt: at, inputTokens: 1000, outputTokens: 1000 });
      }
    });

    const ranges: Array<[string, string | undefined, string | undefined]> = [
      ['no bounds', undefined, undefined],
      ['from only (mid-day)', '2026-03-04T13:30:00Z', undefined],
      ['to only (mid-day)', undefined, '2026-03-06T08:00:00Z'],
      ['whole days exactly', '2026-03-03T00:00:00Z', '2026-03-07T23:59:59.999Z'],
      ['partial days on both ends', '2026-03-02T17:00:00Z', '2026-03-09T06:00:00Z'],
      ['inclusive bounds on turn instants', '2026-03-05T00:00:00.000Z', '2026-03-08T00:00:00.000Z'],
      ['within one day', '2026-03-05T01:00:00Z', '2026-03-05T23:59:59.999Z'],
      ['spanning one midnight, no whole day', '2026-03-04T20:00:00Z', '2026-03-05T04:00:00Z'],
      ['a single instant', '2026-03-05T00:00:00Z', '2026-03-05T00:00:00Z'],
      ['time-zone offsets', '2026-03-04T01:00:00+02:00', '2026-03-06T22:00:00-05:00'],
      ['sub-millisecond bounds', '2026-03-05T00:00:00.0001Z', '2026-03-05T23:59:59.9999Z'],
      ['before any turn', '2020-01-01T00:00:00Z', '2020-12-31T00:00:00Z'],
    ];

    it.each(ranges)('sums an agent over %s', async (_name, from, to) => {
      const query = new URLSearchParams();
      if (from) query.set('created_from', from);
      if (to) query.set('created_to', to);
      const res = await t.http.get(`/management/v1/agents/${a.agentId}/usage?${query.toString()}`, org.headers);
      expect(res.status).toBe(200);
      // Sub-millisecond bounds: created_at has millisecond precision, so .0001 excludes midnight and .9999 keeps .999.
      const lo = from === '2026-03-05T00:00:00.0001Z' ? '2026-03-05T00:00:00.001Z' : from;
      expect(res.body).toEqual(expected(turnsA, lo, to));
    });

    it.each(ranges)('sums a project over %s', async (_name, from, to) => {
      const query = new URLSearchParams();
      if (from) query.set('created_from', from);
      if (to) query.set('created_to', to);
      const res = await t.http.get(`/management/v1/projects/${a.projectId}/usage?${query.toString()}`, org.headers);
      expect(res.status).toBe(200);
      const lo = from === '2026-03-05T00:00:00.0001Z' ? '2026-03-05T00:00:00.001Z' : from;
      expect(res.body).toEqual(expected([...turnsA, ...turnsB], lo, to));
    });

    it('total_tokens is the sum of the four token fields', async () => {
      const res = await t.http.get(`/management/v1/projects/${a.projectId}/usage`, org.headers);
      const { input_tokens, output_tokens, cache_read_tokens, reasoning_tokens, total_tokens } = res.body;
      expect(total_tokens).toBe(input_tokens + output_tokens + cache_read_tokens + reasoning_tokens);
      expect(cache_read_tokens).toBeGreaterThan(0);
      expect(reasoning_tokens).toBeGreaterThan(0);
    });

    it.each([
      ['created_from', 'created_from=yesterday'],
      ['created_from', 'created_from=2026-03-01'],
      ['created_to', 'created_to=2026-03-01T25:00:00Z'],
      ['created_to', 'created_from=2026-03-05T00:00:00Z&created_to=2026-03-04T23:59:59Z'],
      ['period', 'period=month'],
    ])('rejects %s with 422 (%s)', async (field, query) => {
      for (const path of [`/management/v1/agents/${a.agentId}/usage`, `/management/v1/projects/${a.projectId}/usage`]) {
        const res = await t.http.get(`${path}?${query}`, org.headers);
        expect(res.status).toBe(422);
        expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      }
    });

    it("is 404 for another organization's agent or project, 422 for malformed ids, 401 without credentials", async () => {
      expect((await t.http.get(`/management/v1/agents/${other.agentId}/usage`, org.headers)).status).toBe(404);
      expect((await t.http.get(`/management/v1/projects/${other.projectId}/usage`, org.headers)).status).toBe(404);
      expect((await t.http.get(`/management/v1/agents/${'0'.repeat(24)}/usage`, org.headers)).status).toBe(404);
      const badAgent = await t.http.get('/management/v1/agents/abc/usage', org.headers);
      expect(badAgent.status).toBe(422);
      expect(badAgent.body.error.details[0].field).toBe('agentId');
      const badProject = await t.http.get('/management/v1/projects/abc/usage', org.headers);
      expect(badProject.body.error.details[0].field).toBe('projectId');
      expect((await t.http.get(`/management/v1/agents/${a.agentId}/usage`)).status).toBe(401);
      expect((await t.http.get(`/management/v1/projects/${a.projectId}/usage`, { 'x-organization-api-key': 'oak_nope' })).status).toBe(401);
    });
  });

  describe('deleted agents and projects', () => {
    let org: TestOrg;
    let a: ThreadOwner;
    let b: ThreadOwner;
    beforeEach(async () => {
      await t.reset();
      org = await t.factory.org();
      const project = await t.factory.project(org);
      const agentA = await t.factory.agent(org, { project });
      const agentB = await t.factory.agent(org, { project });
      a = { organizationId: org.id, projectId: project.id, agentId: agentA.id };
      b = { organizationId: org.id, projectId: project.id, agentId: agentB.id };
      await insertInteraction(t, a, await insertThread(t, a), { inputTokens: 100, outputTokens: 50 });
      await insertInteraction(t, b, await insertThread(t, b), { inputTokens: 7, outputTokens: 3, cacheReadTokens: 2, reasoningTokens: 1 });
    });

    it("keeps a deleted agent's usage in its project's; the agent's own usage route is 404", async () => {
      expect((await t.http.delete(`/management/v1/agents/${b.agentId}`, org.headers)).status).toBe(204);
      expect((await t.http.get(`/management/v1/agents/${b.agentId}/usage`, org.headers)).status).toBe(404);
      const res = await t.http.get(`/management/v1/projects/${a.projectId}/usage`, org.headers);
      expect(res.body).toEqual({
        interaction_count: 2,
        input_tokens: 107,
        output_tokens: 53,
        cache_read_tokens: 2,
        reasoning_tokens: 1,
        total_tokens: 163,
      });
      expect((await t.http.get(`/management/v1/agents/${a.agentId}/usage`, org.headers)).body.total_tokens).toBe(150);
    });

    it('is 404 for a deleted project', async () => {
      expect((await t.http.delete(`/management/v1/projects/${a.projectId}`, org.headers)).status).toBe(204);
      const res = await t.http.get(`/management/v1/projects/${a.projectId}/usage`, org.headers);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    });
  });
});
