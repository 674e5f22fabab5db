import { createServer } from 'node:net';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, shopBundle } from '../support/agents.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const EVENTS = '/messaging/v1/events';
const VALID_PER_ROUND = 200;

/** Hostile events of one tenant, each with the field its 422 must name. */
const INVALID: Array<{ body: Record<string, unknown>; field: string }> = [
  { body: { text: 'x\u0000' }, field: 'text' },
  { body: { text: 'a\ud800b' }, field: 'text' },
  { body: { text: 'x'.repeat(16_385) }, field: 'text' },
  { body: { text: 'ok', thread_id: 't\u0000' }, field: 'thread_id' },
  { body: { text: 'ok', agent_variables: { 'a\u0000b': 1 } }, field: 'agent_variables' },
  { body: { text: 'ok', agent_variables: { order: { 'k\ud800': 'v' } } }, field: 'agent_variables.order' },
  { body: { text: 'ok', agent_variables: { order: { lines: ['v\udc00'] } } }, field: 'agent_variables.order.lines[0]' },
  { body: { agent_variables: { note: 'nul \u0000 inside' } }, field: 'agent_variables.note' },
  { body: { text: 'ok', agent_variables: { deep: [{ 'x\u0000': true }] } }, field: 'agent_variables.deep[0]' },
  { body: { text: '\u0000' }, field: 'text' },
];

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('events webhook: one tenant’s events never fail another tenant’s', () => {
  let t: TestApp;

  async function webhookAgent(org: TestOrg): Promise<{ agentId: string; headers: Record<string, string> }> {
    const agent = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    const created = expectStatus(
      await t.http.post(`/management/v1/agents/${agent.agentId}/api-keys`, {}, org.headers),
      201,
      'api key',
    ).body;
    return { agentId: agent.agentId, headers: { 'x-agent-api-key': created.api_key } };
  }

  async function storedEvents(organizationId: string): Promise<number> {
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM events WHERE organization_id = $1`, [organizationId]);
    return n;
  }

  beforeAll(async () => {
    // API only: this file is about the accept path; nothing here needs the events to run.
    t = await createTestApp({ WORKERS: 'off' });
  });
  beforeEach(async () => {
    await t.reset();
  });
  afterAll(async () => {
    await t.close();
  });

  it('accepts every valid event of one organization while another sends events PostgreSQL would refuse, all at once', async () => {
    const hostileOrg = await t.factory.org();
    const victimOrg = await t.factory.org();
    const hostile = await webhookAgent(hostileOrg);
    const victim = await webhookAgent(victimOrg);
    // Three rounds, each one burst with the invalid events spread among the valid ones, so that they share
    // group-commit statements with them.
    for (let round = 0; round < 3; round += 1) {
      const spacing = Math.floor(VALID_PER_ROUND / INVALID.length);
      const requests: Array<Promise<{ kind: 'valid' | 'invalid'; index: number; status: number; body: any }>> = [];
      for (let i = 0; i < VALID_PER_ROUND; i += 1) {
        if (i % spacing === 0 && i / spacing < INVALID.length) {
          const index = i / spacing;
          requests.push(
            t.http
              .post(EVENTS, INVALID[index]!.body, hostile.headers)
              .then((r) => ({ kind: 'invalid', index, status: r.status, body: r.body })),
          );
        }
        requests.push(
          t.http
            .post(EVENTS, { text: `order ${round}-${i}`, thread_id: `t-${i % 9}`, agent_variables: { n: i } }, victim.headers)
            .then((r) => ({ kind: 'valid', index: i, status: r.status, body: r.body })),
        );
      }
      const answers = await Promise.all(requests);
      const valid = answers.filter((a) => a.kind === 'valid');
      expect(valid.filter((a) => a.status !== 202).map((a) => a.status)).toEqual([]);
      for (const answer of answers.filter((a) => a.kind === 'invalid')) {
        const { body, field } = INVALID[answer.index]!;
        expect({ body, status: answer.status, code: answer.body?.error?.code }).toEqual({ body, status: 422, code: 'validation_error' });
        expect(answer.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      }
      expect(await storedEvents(victimOrg.id)).toBe(VALID_PER_ROUND * (round + 1));
      expect(await storedEvents(hostileOrg.id)).toBe(0);
    }
  });

  it('answers 422 (not 502 "retry") for agent_variables nested deeper than PostgreSQL accepts, and stores nothing', async () => {
    const org = await t.factory.org();
    const agent = await webhookAgent(org);
    const depth = 10_000;
    const raw = `{"text":"hi","agent_variables":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const res = await t.http.request('POST', EVENTS, { raw, headers: { ...agent.headers, 'content-type': 'application/json' } });
    expect([res.status, res.body.error.code]).toEqual([422, 'validation_error']);
    expect(res.body.error.details[0].field).toEqual(expect.any(String));
    expect(await storedEvents(org.id)).toBe(0);
  });

  it('keeps accepting (202, row committed) while Redis is unreachable: a worker’s poll finds the event later', async () => {
    const org = await t.factory.org();
    const agent = await webhookAgent(org);
    // Rate limiting is off here: its behaviour without Redis is the limiter's own (fail open), not the webhook's.
    const noRedis = await createTestApp({ WORKERS: 'off', REDIS_URL: `redis://127.0.0.1:${await closedPort()}/0` });
    try {
      const res = await noRedis.http.post(EVENTS, { text: 'while Redis is down', thread_id: 'no-redis' }, agent.headers);
      expect(res.status).toBe(202);
      const rows = await t.dataSource.query(`SELECT status, text FROM events WHERE id = $1`, [res.body.event_id]);
      expect(rows).toEqual([{ status: 'queued', text: 'while Redis is down' }]);
    } finally {
      await noRedis.close();
    }
  });
});
