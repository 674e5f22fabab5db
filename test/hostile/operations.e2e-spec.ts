import type { TestApp } from '../support/test-app.js';
import { mutationsOf, operationsOf, sample, toRaw, validRequest, type Operation } from './support/operations.js';
import { report } from './support/oracles.js';
import { IdCache, Judge } from './support/walk.js';
import { pathIds, seedTenant, startHostileApp, type Tenant } from './support/world.js';

/** Mutations sent per operation (sampled deterministically, at least one of each kind): keeps the walk near a minute. */
const BUDGET_PER_OPERATION = Number(process.env.HOSTILE_BUDGET ?? 45);
const SEED = process.env.HOSTILE_SEED ?? 'issue-13';

describe('hostile input: every operation of the served OpenAPI document', () => {
  let t: TestApp;
  let close: () => Promise<void>;
  let signingToken: string;
  let tenant: Tenant;
  let operations: Operation[];

  beforeAll(async () => {
    const started = await startHostileApp();
    ({ t, close } = started);
    signingToken = started.twilio.authToken;
    tenant = await seedTenant(t, 'walk');
    const document = await t.http.get('/openapi.json');
    expect(document.status).toBe(200);
    operations = operationsOf(document.body);
  }, 60_000);
  afterAll(() => close());

  it('finds every surface in the document: management, messaging, token endpoint, events and channel webhooks, health', () => {
    const keys = operations.map((o) => o.key);
    expect(keys.length).toBeGreaterThanOrEqual(50);
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /management/v1/auth/token',
        'GET /health',
        'POST /messaging/v1/events',
        'POST /messaging/v1/channels/{channel}/inbound',
        'POST /messaging/v1/channels/{channel}/status',
        'POST /messaging/v1/messages',
        'DELETE /management/v1/projects/{projectId}',
      ]),
    );
  });

  it('answers every valid request and every mutation without 5xx, inside the envelope, leaking nothing, changing nothing when refused', async () => {
    const judge = new Judge(t, 'operations');
    const ids = new IdCache((op) => pathIds(t, tenant, op.method, op.path), judge);
    const baselines: string[] = [];
    for (const op of operations) {
      const valid = validRequest(op, tenant, await ids.ids(op), signingToken);
      const baseline = await judge.judge(op, valid, 'valid request', toRaw(valid), { oauth: op.surface === 'token' });
      ids.answered(op, baseline.status);
      if (baseline.status >= 300) baselines.push(`${op.key} → ${baseline.status} ${baseline.text.slice(0, 160)}`);
      for (const mutation of sample(mutationsOf(op), BUDGET_PER_OPERATION, SEED)) {
        const parts = validRequest(op, tenant, await ids.ids(op), signingToken);
        const res = await judge.judge(op, parts, `${mutation.kind}: ${mutation.name}`, mutation.build(parts), mutation.expect);
        ids.answered(op, res.status);
      }
    }
    report(
      judge.oracle,
      `\n[hostile:operations] valid requests not answered 2xx (mutations of these test less): ${baselines.length}\n${baselines.map((b) => `  - ${b}`).join('\n')}`,
    );
    if (judge.oracle.violations.length > 0) throw new Error(judge.oracle.summary(60));
  }, 170_000);
});
