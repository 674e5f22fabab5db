import type { TestApp } from '../support/test-app.js';
import { report, type Expectation } from './support/oracles.js';
import { operationsOf, toRaw, validRequest, type Operation, type RequestParts } from './support/operations.js';
import { IdCache, Judge } from './support/walk.js';
import { pathIds, seedTenant, startHostileApp, type Tenant } from './support/world.js';

/** Path parameters that name something an organization owns (a channel name or a template id does not). */
const OWNED = new Set([
  'projectId',
  'agentId',
  'versionId',
  'keyId',
  'threadId',
  'interactionId',
  'eventId',
  'senderId',
  'testCaseId',
  'evaluationId',
  'messageId',
]);

describe('hostile input: cross-tenant — organization 2 aims at organization 1', () => {
  let t: TestApp;
  let close: () => Promise<void>;
  let signingToken: string;
  let victim: Tenant;
  let attacker: Tenant;
  let operations: Operation[];

  beforeAll(async () => {
    const started = await startHostileApp();
    ({ t, close } = started);
    signingToken = started.twilio.authToken;
    victim = await seedTenant(t, 'org1');
    attacker = await seedTenant(t, 'org2');
    operations = operationsOf((await t.http.get('/openapi.json')).body);
  }, 60_000);
  afterAll(() => close());

  /** Organization 1's ids and canary: none may appear in an answer to organization 2 unless the request carried it. */
  function leaks(text: string, request: string): string[] {
    const secrets = [
      victim.canary,
      victim.projectId,
      victim.agentId,
      victim.publishedVersionId,
      victim.draftVersionId,
      victim.threadId,
      victim.channelThreadId,
      victim.interactionId,
      victim.eventId,
      victim.senderId,
      victim.testCaseId,
      victim.evaluationId,
      victim.messageId,
      victim.publishableKeyId,
      victim.agentApiKeyId,
      victim.org.id,
    ];
    return secrets.filter((s) => text.includes(s) && !request.includes(s));
  }

  it('refuses every operation on organization 1’s ids with organization 2’s credentials (404, or 401/403), changes nothing and leaks nothing', async () => {
    const judge = new Judge(t, 'cross-tenant');
    const victimIds = new IdCache((op) => pathIds(t, victim, op.method, op.path), judge);
    const attempts: Array<{ op: Operation; name: string; parts: RequestParts; expect: Expectation }> = [];

    for (const op of operations) {
      const owned = op.parameters.some((p) => p.in === 'path' && OWNED.has(p.name));
      // Organization 2's own valid request, with organization 1's path ids.
      const parts = validRequest(op, attacker, await victimIds.ids(op), signingToken);
      attempts.push({
        op,
        name: 'organization 1 path ids',
        parts,
        expect: owned ? { reject: true, statuses: [401, 403, 404], oauth: op.surface === 'token' } : { oauth: op.surface === 'token' },
      });
      for (const [name, body] of bodyReferences(op, attacker, victim)) {
        attempts.push({
          op,
          name,
          parts: { ...validRequest(op, attacker, await pathIds(t, attacker, op.method, op.path), signingToken), json: body },
          expect: { reject: true, statuses: [404, 422] },
        });
      }
      for (const [name, query] of queryReferences(op, victim)) {
        attempts.push({
          op,
          name,
          parts: { ...validRequest(op, attacker, await pathIds(t, attacker, op.method, op.path), signingToken), query },
          expect: {},
        });
      }
    }
    for (const attempt of attempts) {
      const request = toRaw(attempt.parts);
      const res = await judge.judge(attempt.op, attempt.parts, attempt.name, request, attempt.expect);
      victimIds.answered(attempt.op, res.status);
      const leaked = leaks(res.text, `${request.url} ${String(request.body ?? '')}`);
      if (leaked.length > 0) {
        judge.oracle.record({
          operation: attempt.op.key,
          mutation: attempt.name,
          status: res.status,
          problem: 'organization 1 data in organization 2’s answer',
          excerpt: `${leaked.join(', ')} in ${res.text}`,
        });
      }
    }
    // Organization 1's resources are all still there.
    for (const [table, id] of [
      ['projects', victim.projectId],
      ['agents', victim.agentId],
      ['threads', victim.threadId],
      ['senders', victim.senderId],
    ] as const) {
      const [row] = await t.dataSource.query(`SELECT row_to_json(x) AS r FROM "${table}" x WHERE id = $1`, [id]);
      if (!row || row.r.deleted_at) {
        judge.oracle.record({
          operation: 'after the walk',
          mutation: '-',
          status: 0,
          problem: 'organization 1 resource gone',
          excerpt: `${table}/${id}`,
        });
      }
    }
    report(judge.oracle);
    if (judge.oracle.violations.length > 0) throw new Error(judge.oracle.summary(60));
  }, 120_000);

  it('routes a reply on the shared default sender to neither organization when the phone talks to both', async () => {
    const phone = '+15550424242';
    for (const tenant of [victim, attacker]) {
      const started = await t.http.post(
        '/messaging/v1/channels/sms/threads',
        { user_id: `${tenant.canary}-shared`, phone_number: phone },
        tenant.bearer,
      );
      expect(started.status).toBe(201);
    }
    const sid = `SM${'ab'.repeat(16)}`;
    const parts = validRequest(
      operations.find((o) => o.key === 'POST /messaging/v1/channels/{channel}/inbound')!,
      attacker,
      { channel: 'sms' },
      signingToken,
    );
    parts.form = { ...parts.form!, MessageSid: sid, From: phone, Body: 'which organization gets this?' };
    const res = await judge().judge(parts.op, parts, 'inbound reply on the shared sender', toRaw(parts), {});
    expect(res.status).toBeLessThan(300);
    // Neither conversation got the message, and no turn of either agent was queued for it.
    const routed = await t.dataSource.query(
      `SELECT organization_id, thread_id FROM channel_messages WHERE provider_message_id = $1 AND thread_id IS NOT NULL`,
      [sid],
    );
    const turns = await t.dataSource.query(`SELECT organization_id FROM events WHERE text = $1`, ['which organization gets this?']);
    expect({ routed, turns }).toEqual({ routed: [], turns: [] });
  });

  const judge = () => new Judge(t, 'cross-tenant-channels');
});

/** Bodies of organization 2's valid requests that name organization 1's resources in a field. */
function bodyReferences(op: Operation, attacker: Tenant, victim: Tenant): Array<[string, Record<string, unknown>]> {
  const base = validRequest(op, attacker, {}).json ?? {};
  switch (op.key) {
    case 'POST /messaging/v1/messages':
    case 'POST /messaging/v1/messages/stream':
    case 'POST /messaging/v1/followup-suggestions':
      return [['body thread_id of organization 1', { ...base, thread_id: victim.threadId }]];
    case 'POST /messaging/v1/channels/{channel}/threads':
      return [['body sender_id of organization 1', { ...base, sender_id: victim.senderId }]];
    case 'POST /management/v1/agents/{agentId}/versions':
      return [['clone from a version of organization 1', { source: 'clone', from_version_id: victim.publishedVersionId }]];
    default:
      return [];
  }
}

/** Query filters of organization 2's lists that name organization 1's resources: answered, but with nothing of theirs. */
function queryReferences(op: Operation, victim: Tenant): Array<[string, string[]]> {
  const names = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  const out: Array<[string, string[]]> = [];
  const add = (param: string, value: string) => {
    if (names.has(param)) out.push([`query ${param} of organization 1`, [`${param}=${encodeURIComponent(value)}`]]);
  };
  add('project_id', victim.projectId);
  add('agent_id', victim.agentId);
  add('thread_id', victim.threadId);
  add('user_id', `${victim.canary}-user`);
  add('external_id', `${victim.canary}-conversation`);
  if (names.has('runtime_version') && names.has('agent_id')) {
    out.push(['query runtime_version=2 with agent_id of organization 1', [`runtime_version=2`, `agent_id=${victim.agentId}`]]);
  }
  return out;
}
