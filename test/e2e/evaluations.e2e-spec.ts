// Evaluations (issue 32, docs/evaluations.md): test cases (CRUD, import/export, from a thread), evaluation runs on the
// queue with the comparison against the live version, and the publish gate (409 evaluation_required, force + audit).
import { jest } from '@jest/globals';
import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, helpBundle, liveAgent, type LiveTestAgent } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';

// Several turns and queue runs per test on a shared, loaded machine: the outcome is asserted, never the time.
jest.setTimeout(180_000);

const SEND = '/messaging/v1/messages';

/** Five cases the help bundle passes: three answers with their page, a follow-up in one conversation, one decline. */
const CASES = [
  {
    name: 'Return window',
    turns: [{ text: 'How many days do I have to return an item?', expect: { contains: ['30 days'], cites: ['returns'], declines: false } }],
  },
  {
    name: 'Standard shipping',
    turns: [{ text: 'How long does standard shipping take?', expect: { contains: ['3 to 5 business days'], cites: ['shipping'] } }],
  },
  {
    name: 'Warranty',
    turns: [{ text: 'Is there a warranty on footwear?', expect: { contains: ['one-year'], cites: ['warranty'] } }],
  },
  {
    name: 'Shipping then express',
    turns: [
      { text: 'How long does standard shipping take?', expect: { cites: ['shipping'] } },
      { text: 'And express shipping?', expect: { contains: ['1 to 2 business days'], not_contains: ['could not find'] } },
    ],
  },
  {
    name: 'Out of scope',
    turns: [{ text: 'How do I return a Kubernetes deployment to a previous revision?', expect: { declines: true } }],
  },
];

/** The help bundle with the returns page saying 14 days: breaks exactly the "Return window" case. */
const brokenBundle: Bundle = {
  ...helpBundle,
  knowledge: helpBundle.knowledge!.map((doc) => (doc.id === 'returns' ? { ...doc, text: doc.text.replace('30 days', '14 days') } : doc)),
};

describe('evaluations', () => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let help: LiveTestAgent;
  const agentPath = () => `/management/v1/agents/${help.agentId}`;

  const newVersion = async (bundle: Bundle): Promise<string> => {
    const v = expectStatus(
      await t.http.post(`${agentPath()}/versions`, { source: 'clone', from_version_id: help.versionId }, org.headers),
      201,
      'clone',
    ).body;
    expectStatus(await t.http.post(`${agentPath()}/versions/${v.id}/push`, { bundle }, org.headers), 200, 'push');
    return v.id as string;
  };
  const push = async (versionId: string, bundle: Bundle) =>
    expectStatus(await t.http.post(`${agentPath()}/versions/${versionId}/push`, { bundle }, org.headers), 200, 'push');
  const evaluate = async (versionId: string) => {
    const started = await t.http.post(`${agentPath()}/versions/${versionId}/evaluations`, undefined, org.headers);
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), status: 'queued' });
    const path = `${agentPath()}/versions/${versionId}/evaluations/${started.body.id}`;
    return waitFor(
      async () => {
        const res = await t.http.get(path, org.headers);
        return res.body.status === 'completed' || res.body.status === 'failed' ? res.body : undefined;
      },
      'the evaluation to finish',
      60_000,
    );
  };
  const publish = (versionId: string, query = '') =>
    t.http.post(`${agentPath()}/versions/${versionId}/publish${query}`, undefined, org.headers);
  const audit = async (action: string) =>
    (await t.dataSource.query(`SELECT resource_type, resource_id, after FROM audit_events WHERE action = $1 ORDER BY created_at`, [
      action,
    ])) as Array<{ resource_type: string; resource_id: string; after: Record<string, unknown> }>;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '1000000' });
    org = await t.factory.org();
    other = await t.factory.org();
    help = await liveAgent(t, org, { bundle: helpBundle, runtime: 'v2' });
  });
  afterAll(() => t.close());

  describe('test cases', () => {
    let caseId: string;

    it('creates, reads, lists, changes and deletes a case', async () => {
      const created = await t.http.post(`${agentPath()}/test-cases`, CASES[0], org.headers);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ agent_id: help.agentId, name: 'Return window', turns: CASES[0]!.turns });
      caseId = created.body.id;
      expect((await t.http.get(`${agentPath()}/test-cases/${caseId}`, org.headers)).body).toEqual(created.body);

      const renamed = await t.http.patch(`${agentPath()}/test-cases/${caseId}`, { name: 'Returns' }, org.headers);
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: 'Returns', turns: CASES[0]!.turns });

      const list = await t.http.get(`${agentPath()}/test-cases?page[size]=10`, org.headers);
      expect(list.status).toBe(200);
      expect(list.body.results.map((c: { id: string }) => c.id)).toEqual([caseId]);

      expect((await t.http.delete(`${agentPath()}/test-cases/${caseId}`, org.headers)).status).toBe(204);
      expect((await t.http.get(`${agentPath()}/test-cases/${caseId}`, org.headers)).status).toBe(404);
      const actions = await t.dataSource.query(`SELECT action FROM audit_events WHERE resource_id = $1 ORDER BY created_at`, [caseId]);
      expect(actions.map((a: { action: string }) => a.action)).toEqual(['test_case.create', 'test_case.update', 'test_case.delete']);
    });

    it('imports and exports the same JSON', async () => {
      const imported = await t.http.post(`${agentPath()}/test-cases/import`, { test_cases: CASES }, org.headers);
      expect(imported.status).toBe(201);
      expect(imported.body.results.map((c: { name: string }) => c.name)).toEqual(CASES.map((c) => c.name));
      const exported = await t.http.get(`${agentPath()}/test-cases/export`, org.headers);
      expect(exported.status).toBe(200);
      expect(exported.body).toEqual({ test_cases: CASES });
    });

    it('makes a case from a real thread in one call', async () => {
      const sent = expectStatus(
        await t.http.post(SEND, { text: 'How many days do I have to return an item?', user_id: 'u-thread' }, help.headers),
        200,
        'send',
      ).body;
      const res = await t.http.post(`${agentPath()}/test-cases/from-thread`, { thread_id: sent.thread_id }, org.headers);
      expect(res.status).toBe(201);
      expect(res.body.name).toBe('How many days do I have to return an item?');
      expect(res.body.turns).toEqual([
        { text: 'How many days do I have to return an item?', expect: { declines: false, cites: ['returns'] } },
      ]);
      // Not one of the five the evaluation below counts on.
      expect((await t.http.delete(`${agentPath()}/test-cases/${res.body.id}`, org.headers)).status).toBe(204);
      // Another tenant's thread, or a thread id that names nothing: 404.
      const foreign = await t.http.post(`${agentPath()}/test-cases/from-thread`, { thread_id: 'a'.repeat(24) }, org.headers);
      expect(foreign.status).toBe(404);
    });

    it('validates at the edge: 422 naming the field', async () => {
      const cases: Array<[unknown, string]> = [
        [{ name: 'x', turns: [] }, 'turns'],
        [{ name: '', turns: CASES[0]!.turns }, 'name'],
        [{ name: 'x', turns: [{ text: '', expect: {} }] }, 'turns[0].text'],
        [{ name: 'x', turns: [{ text: 'hi' }] }, 'turns[0].expect'],
        [{ name: 'x', turns: [{ text: 'hi', expect: { contains: [''] } }] }, 'turns[0].expect.contains'],
        [{ name: 'x', turns: [{ text: 'hi', expect: { declines: 'yes' } }] }, 'turns[0].expect.declines'],
        [{ name: 'x', turns: [{ text: 'hi', expect: { cites: 'returns' } }] }, 'turns[0].expect.cites'],
        [{ name: 'x', turns: [{ text: 'hi', expect: {}, extra: 1 }] }, 'turns[0].extra'],
        [{ name: 'x', turns: Array.from({ length: 21 }, () => ({ text: 'hi', expect: {} })) }, 'turns'],
      ];
      for (const [body, field] of cases) {
        const res = await t.http.post(`${agentPath()}/test-cases`, body, org.headers);
        expect({ field, status: res.status }).toEqual({ field, status: 422 });
        expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      }
      const badImport = await t.http.post(`${agentPath()}/test-cases/import`, { test_cases: [{ name: 'x' }] }, org.headers);
      expect(badImport.status).toBe(422);
      expect(badImport.body.error.details.map((d: { field: string }) => d.field)).toContain('test_cases[0].turns');
      expect((await t.http.get(`${agentPath()}/test-cases/not-an-id`, org.headers)).status).toBe(422);
    });

    it('answers 401 without credentials and 404 to another tenant', async () => {
      expect((await t.http.get(`${agentPath()}/test-cases`)).status).toBe(401);
      expect((await t.http.get(`${agentPath()}/test-cases`, { 'x-organization-api-key': 'oak_wrong' })).status).toBe(401);
      expect((await t.http.get(`${agentPath()}/test-cases`, other.headers)).status).toBe(404);
      expect((await t.http.post(`${agentPath()}/test-cases`, CASES[0], other.headers)).status).toBe(404);
      expect((await t.http.get(`${agentPath()}/test-cases/export`, other.headers)).status).toBe(404);
      const mine = (await t.http.get(`${agentPath()}/test-cases`, org.headers)).body.results[0].id as string;
      expect((await t.http.get(`${agentPath()}/test-cases/${mine}`, other.headers)).status).toBe(404);
      expect((await t.http.patch(`${agentPath()}/test-cases/${mine}`, { name: 'x' }, other.headers)).status).toBe(404);
      expect((await t.http.delete(`${agentPath()}/test-cases/${mine}`, other.headers)).status).toBe(404);
    });
  });

  describe('runs, comparison and the publish gate', () => {
    let liveRun: { id: string };
    let brokenRun: { id: string };
    let candidate: string;

    it('passes every case on the live version, without a thread, usage or list entry', async () => {
      const threadsBefore = (await t.dataSource.query(`SELECT count(*)::int AS n FROM threads WHERE agent_id = $1`, [help.agentId]))[0].n;
      const usageBefore = (await t.http.get(`${agentPath()}/usage`, org.headers)).body;
      const analyticsBefore = (await t.http.get(`${agentPath()}/analytics?group_by=day`, org.headers)).body;
      const run = await evaluate(help.versionId);
      liveRun = run;
      expect(run).toMatchObject({ status: 'completed', passed: true, case_count: 5, passed_count: 5, compared_to: null, error: null });
      expect(run.cases.every((c: { passed: boolean }) => c.passed)).toBe(true);
      expect(run.cases.find((c: { name: string }) => c.name === 'Shipping then express').turns).toHaveLength(2);
      // Evaluation conversations are never threads: no list entry, no usage, nothing for analytics or webhooks to see.
      expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM threads WHERE agent_id = $1`, [help.agentId]))[0].n).toBe(
        threadsBefore,
      );
      expect((await t.http.get(`${agentPath()}/usage`, org.headers)).body).toEqual(usageBefore);
      expect((await t.http.get(`${agentPath()}/analytics?group_by=day`, org.headers)).body).toEqual(analyticsBefore);
      const listed = await t.http.get(`/management/v1/threads?agent_id=${help.agentId}&runtime_version=2`, org.headers);
      expect(listed.body.results).toHaveLength(threadsBefore);
    });

    it('shows exactly the regression a new version brings, first', async () => {
      candidate = await newVersion(brokenBundle);
      const run = await evaluate(candidate);
      brokenRun = run;
      expect(run).toMatchObject({ status: 'completed', passed: false, case_count: 5, passed_count: 4 });
      expect(run.compared_to).toMatchObject({ version_id: help.versionId, evaluation_id: liveRun.id, fixed: [] });
      expect(run.compared_to.regressions).toEqual([
        { test_case_id: expect.any(String), name: 'Return window', failures: ['contains: the reply does not contain "30 days"'] },
      ]);
      expect(run.cases[0]).toMatchObject({ name: 'Return window', passed: false, regression: true });
      expect(run.cases[0].turns[0].reply).toContain('14 days');
      expect(run.cases.slice(1).every((c: { passed: boolean }) => c.passed)).toBe(true);
    });

    it('refuses to publish a failing or unevaluated revision while the agent requires it; force publishes and is audited', async () => {
      // Off by default: the setting is shown on the agent and changed with PATCH.
      expect((await t.http.get(agentPath(), org.headers)).body.publish_requires_passing_evaluation).toBe(false);
      const patched = await t.http.patch(agentPath(), { publish_requires_passing_evaluation: true }, org.headers);
      expect(patched.status).toBe(200);
      expect(patched.body.publish_requires_passing_evaluation).toBe(true);
      expect((await t.http.patch(agentPath(), { publish_requires_passing_evaluation: null }, org.headers)).status).toBe(422);

      const refused = await publish(candidate);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'evaluation_required' });
      expect(refused.body.error.message).toContain('its latest evaluation failed');
      expect((await t.http.get(agentPath(), org.headers)).body.live_version_id).toBe(help.versionId);
      expect((await publish(candidate, '?force=maybe')).status).toBe(422);

      // Fixed and evaluated again: it passes, and publishes without force.
      await push(candidate, { ...helpBundle, welcome_message: 'Fixed: ask about orders and returns.' });
      expect((await publish(candidate)).body.error.message).toContain('it was never evaluated');
      const fixed = await evaluate(candidate);
      expect(fixed).toMatchObject({ passed: true, passed_count: 5, compared_to: { regressions: [] } });
      expect((await publish(candidate)).status).toBe(200);
      expect(await audit('version.publish_forced')).toEqual([]);

      // The broken content again, in another version: its verdict is its content's (same digest), so it is refused;
      // forced, it goes live and the audit log says it was forced past the gate, and why.
      const broken = await newVersion(brokenBundle);
      expect((await publish(broken)).body.error.message).toContain('its latest evaluation failed');
      const forced = await publish(broken, '?force=true');
      expect(forced.status).toBe(200);
      expect((await t.http.get(agentPath(), org.headers)).body.live_version_id).toBe(broken);
      const records = await audit('version.publish_forced');
      expect(records).toEqual([
        {
          resource_type: 'version',
          resource_id: broken,
          after: {
            agent_id: help.agentId,
            forced_past: [
              expect.objectContaining({ version_id: broken, evaluation_id: brokenRun.id, reason: 'its latest evaluation failed' }),
            ],
          },
        },
      ]);

      // A split whose non-live arm has no passing evaluation is refused too; forced, it is audited.
      const split = {
        splits: [
          { version_id: broken, percent: 90 },
          { version_id: help.versionId, percent: 10 },
        ],
      };
      expect((await t.http.request('PUT', `${agentPath()}/traffic`, { body: split, headers: org.headers })).status).toBe(200);
      const unevaluated = await newVersion({ ...helpBundle, welcome_message: 'Another one.' });
      expect((await publish(unevaluated, '?force=true')).status).toBe(200);
      const armed = {
        splits: [
          { version_id: unevaluated, percent: 90 },
          { version_id: broken, percent: 10 },
        ],
      };
      const refusedSplit = await t.http.request('PUT', `${agentPath()}/traffic`, { body: armed, headers: org.headers });
      expect(refusedSplit.status).toBe(409);
      expect(refusedSplit.body.error.code).toBe('evaluation_required');
      const forcedSplit = await t.http.request('PUT', `${agentPath()}/traffic?force=true`, { body: armed, headers: org.headers });
      expect(forcedSplit.status).toBe(200);
      expect((await audit('traffic.update_forced')).map((r) => r.resource_id)).toEqual([help.agentId]);
    });

    it('answers 401, 404 across tenants and 422 on malformed ids', async () => {
      const run = `${agentPath()}/versions/${help.versionId}/evaluations/${liveRun.id}`;
      expect((await t.http.get(run)).status).toBe(401);
      expect((await t.http.get(run, other.headers)).status).toBe(404);
      expect((await t.http.post(`${agentPath()}/versions/${help.versionId}/evaluations`, undefined, other.headers)).status).toBe(404);
      expect((await t.http.get(`${agentPath()}/versions/${candidate}/evaluations/${liveRun.id}`, org.headers)).status).toBe(404);
      const bad = await t.http.get(`${agentPath()}/versions/${help.versionId}/evaluations/xyz`, org.headers);
      expect(bad.status).toBe(422);
      expect(bad.body.error.details[0].field).toBe('evaluationId');
      const list = await t.http.get(`${agentPath()}/versions/${help.versionId}/evaluations`, org.headers);
      expect(list.status).toBe(200);
      expect(list.body.results).toEqual([expect.objectContaining({ id: liveRun.id, cases: [] })]);
    });
  });
});
