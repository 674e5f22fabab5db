import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import type { TestOrg } from '../factories/factory.js';
import { helpBundle, liveAgent } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SEND = '/messaging/v1/messages';

interface AnswerableCheck {
  name: string;
  passed: boolean;
  detail: string;
  confidence: number;
  threshold: number;
  uncovered_words: string[];
}

/** A v2 agent declines a question its knowledge does not cover: plain words, nearest topics, no citation, a trace that says why. */
describe('knowledge declines (v2)', () => {
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

  const ask = async (headers: Record<string, string>, text: string) => {
    const res = await t.http.post(SEND, { text, user_id: 'u1', include_trace: true }, headers);
    expect(res.status).toBe(200);
    const { message } = res.body;
    const answerable = (message.trace_info.checks as AnswerableCheck[]).find((c) => c.name === 'answerable');
    return { message, trace: message.trace_info, answerable: answerable! };
  };

  it('declines an uncovered question with the nearest topics, no citation, and the scores in the trace', async () => {
    const help = await liveAgent(t, org, { bundle: helpBundle, runtime: 'v2' });
    const { message, trace, answerable } = await ask(help.headers, 'How do I return a Kubernetes deployment to a previous revision?');
    expect(message.text).toMatch(/^I could not find this in the knowledge base\. The nearest topics I have are /);
    expect(message.text).toContain('Returns policy');
    expect(message.text).not.toMatch(/\[\d\]/);
    expect(message.followup_suggestions).toContain('Returns policy');
    expect(trace.citations_used).toEqual([]);
    expect(trace.passages_used).toEqual([]);
    expect(answerable).toMatchObject({
      passed: false,
      threshold: 0.16,
      uncovered_words: expect.arrayContaining(['kubernetes', 'deployment']),
    });
    expect(answerable.confidence).toBeLessThan(answerable.threshold);
    expect(answerable.detail).toMatch(/below the threshold of 16 %; not covered: .*kubernetes/);
    expect(trace.narrative).toMatch(/below the 16 % this agent requires/);
    expect(trace.policies).toContainEqual(expect.objectContaining({ code: 'no_answer_without_sources', decision: 'triggered' }));

    // The same agent still answers what it covers, and the check says by how much.
    const covered = await ask(help.headers, 'How many days do I have to return an item?');
    expect(covered.message.text).toMatch(/30 days.*\[1\]/);
    expect(covered.trace.citations_used[0]).toMatchObject({ document_id: 'returns' });
    expect(covered.answerable).toMatchObject({ passed: true, threshold: 0.16, uncovered_words: [] });
    expect(covered.answerable.confidence).toBeGreaterThanOrEqual(0.16);
  });

  it("uses the bundle's knowledge_settings: its threshold and its decline message", async () => {
    const strict: Bundle = {
      ...helpBundle,
      knowledge_settings: { min_confidence: 0.95, decline_message: 'Sorry, our help centre does not cover that yet.' },
    };
    const help = await liveAgent(t, org, { bundle: strict, runtime: 'v2' });
    // Partly covered (returning an item within 30 days, not "40"): answered by default, declined at 0.95.
    const { message, trace, answerable } = await ask(help.headers, 'Can I return an item after 40 days?');
    expect(message.text).toBe('Sorry, our help centre does not cover that yet.');
    expect(trace.citations_used).toEqual([]);
    expect(answerable).toMatchObject({ passed: false, threshold: 0.95 });
    const lenient = await liveAgent(t, org, { bundle: helpBundle, runtime: 'v2' });
    expect((await ask(lenient.headers, 'Can I return an item after 40 days?')).answerable.passed).toBe(true);
  });

  it('rejects knowledge_settings outside the schema with 422 naming the field', async () => {
    const { agentId, versionId } = await liveAgent(t, org, { bundle: helpBundle, runtime: 'v2' });
    const push = (bundle: unknown) => t.http.post(`/management/v1/agents/${agentId}/versions/${versionId}/push`, { bundle }, org.headers);
    for (const [settings, field] of [
      [{ min_confidence: 1.5 }, 'bundle.knowledge_settings.min_confidence'],
      [{ decline_message: '' }, 'bundle.knowledge_settings.decline_message'],
      [{ threshold: 0.3 }, 'bundle.knowledge_settings.threshold'],
    ] as const) {
      const res = await push({ ...helpBundle, knowledge_settings: settings });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await push({ ...helpBundle, knowledge_settings: { min_confidence: 0.3 } })).status).toBe(200);
  });
});
