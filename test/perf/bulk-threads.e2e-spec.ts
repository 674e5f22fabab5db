// The benchmarks' bulk loader (bench/lib/bulk-threads.ts) writes threads, interactions and thread items with raw SQL:
// a schema change the loader does not follow breaks `threads-list` and `seed-threads` only when someone benchmarks.
// Here a small load is read back through the API, so such a change fails in CI instead.
import type pg from 'pg';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { seedThreads } from '../../bench/lib/bulk-threads.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('bench bulk thread loader', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('loads threads whose list, facets and transcripts the API reads', async () => {
    const org = await t.factory.org();
    const pool = (t.dataSource.driver as PostgresDriver).master as pg.Pool;
    const client = await pool.connect();
    try {
      await seedThreads(client, { organizationId: org.id, key: 'bulk-test', projects: 2, threads: 300, interactions: 900, batch: 100 });
    } finally {
      client.release();
    }

    const page = await t.http.get('/management/v1/threads', org.headers);
    expect(page.status).toBe(200);
    expect(page.body.results).toHaveLength(50);
    expect(page.body.meta.has_more).toBe(true);

    const filtered = await t.http.get('/management/v1/threads?tool=catalog', org.headers);
    expect(filtered.status).toBe(200);
    expect(filtered.body.results.length).toBeGreaterThan(0);

    const transcript = await t.http.get(`/management/v1/threads/${page.body.results[0].id}/messages`, org.headers);
    expect(transcript.status).toBe(200);
    // Three turns per thread: each an end-user message and the agent's reply, in order.
    expect(transcript.body.results.map((m: { role: string; text: string }) => [m.role, m.text])).toEqual([
      ['user', 'Question 1'],
      ['agent', 'Answer 1'],
      ['user', 'Question 2'],
      ['agent', 'Answer 2'],
      ['user', 'Question 3'],
      ['agent', 'Answer 3'],
    ]);
  });
});
