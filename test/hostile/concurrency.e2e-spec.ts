import type { TestApp } from '../support/test-app.js';
import { Oracle, report, sendRaw, type RawRequest } from './support/oracles.js';
import { DEEP_ARRAY, HUGE, LONE_SURROGATE, NUL } from './support/operations.js';
import { seedTenant, startHostileApp, type Tenant } from './support/world.js';

const VALID_PER_ROUND = 200;
const ROUNDS = 3;

describe('hostile input: one tenant’s invalid events never fail another tenant’s valid ones', () => {
  let t: TestApp;
  let close: () => Promise<void>;
  let hostile: Tenant;
  let victim: Tenant;

  beforeAll(async () => {
    ({ t, close } = await startHostileApp());
    hostile = await seedTenant(t, 'noisy');
    victim = await seedTenant(t, 'quiet');
  }, 60_000);
  afterAll(() => close());

  const post = (tenant: Tenant, body: string): RawRequest => ({
    method: 'POST',
    url: '/messaging/v1/events',
    headers: { ...tenant.agentKeyHeaders, 'content-type': 'application/json' },
    body,
  });

  /** Events PostgreSQL would refuse or that break limits: each must be refused alone (4xx), never take others down. */
  const invalidBodies = (): string[] => [
    JSON.stringify({ text: NUL }),
    JSON.stringify({ text: LONE_SURROGATE }),
    JSON.stringify({ text: 'ok', agent_variables: { k: NUL } }),
    JSON.stringify({ text: 'ok', agent_variables: { [LONE_SURROGATE]: 1 } }),
    JSON.stringify({ text: 'ok', thread_id: NUL }),
    `{"text":"ok","agent_variables":{"deep":${DEEP_ARRAY}}}`,
    JSON.stringify({ text: HUGE }),
  ];

  it('accepts every valid event of organization 2 while organization 1 sends invalid ones concurrently', async () => {
    const oracle = new Oracle('concurrency');
    const accepted: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const valid = Array.from({ length: VALID_PER_ROUND }, (_, i) =>
        JSON.stringify({ text: `valid ${round}-${i}`, thread_id: `conv-${i % 20}`, agent_variables: { i } }),
      );
      const invalid = Array.from({ length: 5 }, () => invalidBodies()).flat();
      // Interleave so that invalid events land in the same accept batches as valid ones.
      const requests: Array<{ valid: boolean; request: RawRequest }> = [];
      for (let i = 0; i < Math.max(valid.length, invalid.length); i++) {
        if (i < valid.length) requests.push({ valid: true, request: post(victim, valid[i]!) });
        if (i < invalid.length) requests.push({ valid: false, request: post(hostile, invalid[i]!) });
      }
      const answers = await Promise.all(requests.map(async (r) => ({ ...r, res: await sendRaw(t.baseUrl, r.request) })));
      for (const { valid: isValid, request, res } of answers) {
        const what = isValid ? 'valid event of organization 2' : `invalid event of organization 1: ${String(request.body).slice(0, 60)}`;
        oracle.check('POST /messaging/v1/events', `round ${round}: ${what}`, res, isValid ? {} : { reject: true });
        if (isValid && res.status === 202) accepted.push(res.json.event_id);
        else if (isValid) {
          oracle.record({
            operation: 'POST /messaging/v1/events',
            mutation: `round ${round}: ${what}`,
            status: res.status,
            problem: 'valid event refused',
            excerpt: res.text,
          });
        }
      }
    }
    const [stored] = await t.dataSource.query(
      `SELECT count(*) FILTER (WHERE organization_id = $1)::int AS victim, count(*) FILTER (WHERE organization_id = $2)::int AS hostile FROM events WHERE id = ANY($3) OR organization_id = $2`,
      [victim.org.id, hostile.org.id, accepted],
    );
    if (stored.victim !== accepted.length) {
      oracle.record({
        operation: 'events table',
        mutation: '-',
        status: 0,
        problem: 'accepted events not all stored',
        excerpt: `${stored.victim} of ${accepted.length}`,
      });
    }
    // Organization 1's only stored event is the one its seeding queued.
    if (stored.hostile !== 1) {
      oracle.record({
        operation: 'events table',
        mutation: '-',
        status: 0,
        problem: 'an invalid event was stored',
        excerpt: `${stored.hostile - 1} invalid events stored`,
      });
    }
    report(oracle);
    if (oracle.violations.length > 0) throw new Error(oracle.summary(40));
  }, 90_000);
});
