import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import { INPUT_LIMITS } from '../../src/common/validation/input-limits.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, shopBundle } from '../support/agents.js';
import type { HttpResponse } from '../support/http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SEND = '/messaging/v1/messages';

/**
 * Tenant patterns (guardrails, parameter extractors) run on a linear-time engine (RE2 semantics), see only a
 * bounded prefix of the text, and patterns that engine cannot compile are refused when a bundle is pushed.
 * Catalog search considers a bounded length of each word, so one huge word cannot stall the process.
 */
describe('tenant patterns and search bounds', () => {
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

  /** An agent with an empty draft version, to push bundles to. */
  async function draft(
    owner: TestOrg = org,
  ): Promise<{ agentId: string; versionId: string; push: (bundle: unknown) => Promise<HttpResponse> }> {
    const project = expectStatus(await t.http.post('/management/v1/projects', { name: 'Patterns' }, owner.headers), 201, 'project').body;
    const agent = expectStatus(
      await t.http.post(`/management/v1/projects/${project.id}/agents`, { name: 'Patterns agent' }, owner.headers),
      201,
      'agent',
    ).body;
    const version = expectStatus(
      await t.http.post(`/management/v1/agents/${agent.id}/versions`, { source: 'empty' }, owner.headers),
      201,
      'version',
    ).body;
    return {
      agentId: agent.id,
      versionId: version.id,
      push: (bundle) => t.http.post(`/management/v1/agents/${agent.id}/versions/${version.id}/push`, { bundle }, owner.headers),
    };
  }

  const revisionCount = async (): Promise<number> => (await t.dataSource.query(`SELECT count(*)::int AS n FROM agent_revisions`))[0].n;

  describe('a catastrophic-backtracking guardrail', () => {
    const redos: Bundle = { ...shopBundle, guardrails: [{ code: 'redos', patterns: ['^(a+)+$'], message: 'Blocked by the a-guardrail.' }] };

    // Before the linear-time engine this send held the event loop for ~20 s (and /health with it), past this timeout.
    it('answers normally, and /health answers at the same time', async () => {
      const shop = await liveAgent(t, org, { bundle: redos, runtime: 'v1' });
      const [send, health] = await Promise.all([
        t.http.post(SEND, { text: `${'a'.repeat(30)}!`, user_id: 'u1', include_trace: true }, shop.headers),
        t.http.get('/health'),
      ]);
      expect(send.status).toBe(200);
      expect(send.body.message.text).not.toBe('Blocked by the a-guardrail.');
      expect(send.body.message.trace_info.understanding.guardrails.passed).toBe(true);
      expect(health.status).toBe(200);
    }, 10_000);

    it('still blocks what the pattern matches, case-insensitively', async () => {
      const shop = await liveAgent(t, org, { bundle: redos, runtime: 'v1' });
      const res = await t.http.post(SEND, { text: 'aaAAa', user_id: 'u1' }, shop.headers);
      expect(res.status).toBe(200);
      expect(res.body.message.text).toBe('Blocked by the a-guardrail.');
    });
  });

  it('a guardrail sees the whole of a valid message, however its characters are encoded (no emoji padding past it)', async () => {
    const guarded: Bundle = { ...shopBundle, guardrails: [{ code: 'secret', patterns: ['launch codes'], message: 'Blocked: secret.' }] };
    const shop = await liveAgent(t, org, { bundle: guarded, runtime: 'v1' });
    // 16,384 characters in all, the message limit: 16,370 emoji take 32,740 UTF-16 units before the phrase.
    const text = `${'\u{1F600}'.repeat(16_370)} launch codes`;
    const res = await t.http.post(SEND, { text, user_id: 'u1' }, shop.headers);
    expect(res.status).toBe(200);
    expect(res.body.message.text).toBe('Blocked: secret.');
  });

  describe('patterns the linear-time engine cannot run', () => {
    it.each([
      ['a backreference', '(a)\\1'],
      ['a lookahead', '(?=x)'],
      ['a negative lookahead', 'foo(?!bar)'],
      ['a lookbehind', '(?<=x)y'],
    ])('refuses %s in a guardrail with 422 naming the pattern, and commits nothing', async (_what, pattern) => {
      const { push } = await draft();
      const before = await revisionCount();
      const res = await push({ name: 'x', guardrails: [{ code: 'g', patterns: ['\\bok\\b', pattern], message: 'no' }] });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
      expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'bundle.guardrails[0].patterns[1]' })]);
      expect(await revisionCount()).toBe(before);
    });

    it('names the first pattern of a guardrail', async () => {
      const { push } = await draft();
      const res = await push({ name: 'x', guardrails: [{ code: 'g', patterns: ['(a)\\1'], message: 'no' }] });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['bundle.guardrails[0].patterns[0]']);
    });

    it('refuses such a parameter pattern with 422 naming it', async () => {
      const { push } = await draft();
      const before = await revisionCount();
      const res = await push({
        name: 'x',
        parameters: [
          { code: 'a', title: 'A', pattern: '(\\d+)', type: 'number' },
          { code: 'b', title: 'B', pattern: '(?=x)x', type: 'string' },
          { code: 'c', title: 'C', pattern: '(\\w)\\1', type: 'string' },
        ],
      });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([
        'bundle.parameters[1].pattern',
        'bundle.parameters[2].pattern',
      ]);
      expect(await revisionCount()).toBe(before);
    });

    it("answers 404 for another organization's agent, whatever the bundle", async () => {
      const { push } = await draft(await t.factory.org());
      const stranger = await t.factory.org();
      const { agentId, versionId } = await draft();
      const res = await t.http.post(
        `/management/v1/agents/${agentId}/versions/${versionId}/push`,
        { bundle: { name: 'x' } },
        stranger.headers,
      );
      expect(res.status).toBe(404);
      expect((await push({ name: 'fine' })).status).toBe(200);
    });
  });

  describe('bounded search', () => {
    it('answers a message that is one 16,384-letter word, searching only its first searchTokenMaxChars letters', async () => {
      // The catalog tool runs on every message here (no intent gate), so the word reaches the search.
      const everyMessage: Bundle = { ...shopBundle, tools: shopBundle.tools!.map(({ intents: _gate, ...tool }) => tool) };
      const shop = await liveAgent(t, org, { bundle: everyMessage, runtime: 'v1' });
      const letters = 'abcdefghijklmnopqrstuvwxyz';
      const word = Array.from({ length: INPUT_LIMITS.messageMaxChars }, (_, i) => letters[(i * 7) % 26]).join('');
      const res = await t.http.post(SEND, { text: word, user_id: 'u1', include_trace: true }, shop.headers);
      expect(res.status).toBe(200);
      const catalog = res.body.message.trace_info.decisions.find((d: { tool: string }) => d.tool === 'catalog');
      const searched = /for "([^"]*)"/.exec(catalog.text)?.[1] ?? '';
      expect(searched.length).toBe(INPUT_LIMITS.searchTokenMaxChars);
      expect(word.startsWith(searched)).toBe(true);
    });
  });
});
