import { newId } from '../../src/common/ids/new-id.js';
import { MetricsService } from '../../src/modules/metrics/metrics.service.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * The backlog as PostgreSQL sees it (docs/operations.md, "Backlog read from PostgreSQL"): events due and not running
 * show in `agent_events_due` and `agent_events_oldest_due_age_seconds` whatever Bull's queues hold. No processors run
 * here (WORKERS=off): the rows are the stall.
 */
describe('events backlog gauges (read from PostgreSQL)', () => {
  let t: TestApp;
  let metricsUrl: string;
  beforeAll(async () => {
    t = await createTestApp({ WORKERS: 'off' });
    metricsUrl = (await t.app.get(MetricsService).listen())!;
  });
  beforeEach(() => t.reset());
  afterAll(() => t.close());

  async function gauges(): Promise<Map<string, number>> {
    const text = await (await fetch(metricsUrl)).text();
    const found = new Map<string, number>();
    for (const line of text.split('\n')) {
      const match = /^(agent_events_due|agent_events_oldest_due_age_seconds)\{(\w+)="([^"]+)"\} (\S+)$/.exec(line);
      if (match) found.set(`${match[1]}:${match[3]}`, Number(match[4]));
    }
    return found;
  }

  /** Inserts an event row as the accept path would, due `dueSecondsAgo` ago (queued) or with a lease that ran out. */
  async function insertEvent(organizationId: string, options: { dueSecondsAgo: number; status?: 'queued' | 'processing' | 'completed' }) {
    const status = options.status ?? 'queued';
    await t.dataSource.query(
      `INSERT INTO events (id, organization_id, agent_id, external_thread_id, text, status, available_at, locked_until, created_at)
       VALUES ($1, $2, $3, 'backlog', 'hello', $4::varchar, now() - $5 * interval '1 second',
               CASE WHEN $4::varchar = 'processing' THEN now() - $5 * interval '1 second' END, now() - $5 * interval '1 second')`,
      [newId(), organizationId, newId(), status, options.dueSecondsAgo],
    );
  }

  const bucketOf = async (organizationId: string) =>
    String((await t.dataSource.query(`SELECT (abs(hashtext($1)::bigint) % 16)::int AS b`, [organizationId]))[0].b);

  it('is all zeros with nothing due, with one series per age bucket and per organization bucket', async () => {
    const org = await t.factory.org();
    await insertEvent(org.id, { dueSecondsAgo: -600 }); // scheduled for later (a retry's backoff): not due
    await insertEvent(org.id, { dueSecondsAgo: 3000, status: 'completed' });
    const found = await gauges();
    expect([...found.keys()].filter((k) => k.startsWith('agent_events_due:')).sort()).toEqual(
      [
        'agent_events_due:15m_1h',
        'agent_events_due:1m_5m',
        'agent_events_due:5m_15m',
        'agent_events_due:ge_1h',
        'agent_events_due:lt_1m',
      ].sort(),
    );
    expect([...found.keys()].filter((k) => k.startsWith('agent_events_oldest_due_age_seconds:'))).toHaveLength(16);
    expect([...found.values()].every((v) => v === 0)).toBe(true);
  });

  it('counts due events by age and shows the oldest per organization bucket, stalled leases included', async () => {
    const stalled = await t.factory.org();
    const fresh = await t.factory.org();
    for (let i = 0; i < 3; i += 1) await insertEvent(stalled.id, { dueSecondsAgo: 600 });
    await insertEvent(stalled.id, { dueSecondsAgo: 1200, status: 'processing' }); // its worker died: lease over
    await insertEvent(fresh.id, { dueSecondsAgo: 5 });

    const found = await gauges();
    expect(found.get('agent_events_due:5m_15m')).toBe(3);
    expect(found.get('agent_events_due:15m_1h')).toBe(1);
    expect(found.get('agent_events_due:lt_1m')).toBe(1);
    expect(found.get('agent_events_due:ge_1h')).toBe(0);
    const stalledBucket = await bucketOf(stalled.id);
    expect(found.get(`agent_events_oldest_due_age_seconds:${stalledBucket}`)).toBeGreaterThanOrEqual(1200);
    // No label carries an organization id.
    expect(await (await fetch(metricsUrl)).text()).not.toContain(stalled.id);
  });
});
