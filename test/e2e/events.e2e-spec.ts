import { jest } from '@jest/globals';
import { DatabaseError } from 'pg';
import type { Bundle } from '../../src/modules/bundles/bundle.types.js';
import { EventsIngestService } from '../../src/modules/events/events-ingest.service.js';
import { EventsRepository } from '../../src/modules/events/events.repository.js';
import { EventsService } from '../../src/modules/events/events.service.js';
import { EventsWakeup } from '../../src/modules/events/events-wakeup.js';
import { TurnPipeline } from '../../src/modules/messaging/turn-pipeline.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, shopBundle } from '../support/agents.js';
import { startFakeOpenAI, type FakeServer } from '../support/fake-openai-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
import { TURNS_WITH_MESSAGES } from '../support/threads.js';

const EVENTS = '/messaging/v1/events';

/** Polls `probe` until it returns a value (not undefined), at most `timeoutMs`; never a fixed sleep. */
describe('events webhook', () => {
  let t: TestApp;
  /** An API-only instance (WORKERS=off) on its own Redis prefix: its wake-ups never reach `t`'s processors. */
  let api: TestApp;
  /** Another API-only instance, put into shutdown by one test. */
  let stopping: TestApp;
  let fake: FakeServer;
  let org: TestOrg;

  /** A published agent with an agent API key, all through the management API. */
  async function webhookAgent(bundle: Bundle = shopBundle): Promise<{ agentId: string; key: string; headers: Record<string, string> }> {
    const agent = await liveAgent(t, org, { bundle, runtime: 'v1' });
    const created = expectStatus(
      await t.http.post(`/management/v1/agents/${agent.agentId}/api-keys`, {}, org.headers),
      201,
      'api key',
    ).body;
    return { agentId: agent.agentId, key: created.api_key, headers: { 'x-agent-api-key': created.api_key } };
  }

  async function status(eventId: string, headers: Record<string, string>) {
    return (await t.http.get(`${EVENTS}/${eventId}`, headers)).body;
  }

  /** Waits until every event is completed or failed (bounded); returns their final statuses. */
  async function settled(eventIds: string[], headers: Record<string, string>, timeoutMs = 30_000): Promise<any[]> {
    return waitFor(
      async () => {
        const rows: Array<{ id: string; status: string }> = await t.dataSource.query(`SELECT id, status FROM events WHERE id = ANY($1)`, [
          eventIds,
        ]);
        if (rows.length !== eventIds.length || rows.some((r) => r.status === 'queued' || r.status === 'processing')) return undefined;
        return Promise.all(eventIds.map((id) => status(id, headers)));
      },
      `${eventIds.length} events to settle`,
      timeoutMs,
    );
  }

  async function accept(headers: Record<string, string>, body: unknown): Promise<string> {
    const res = await t.http.post(EVENTS, body, headers);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ event_id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    return res.body.event_id;
  }

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await createTestApp({
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'test-key',
      PROVIDER_TIMEOUT_MS: '1500',
      EVENTS_BACKOFF_MS: '50',
      EVENTS_MAX_ATTEMPTS: '3',
      EVENTS_POLL_MS: '300',
    });
    // Closed together at the end: apps of one process share the pg pool once one of them is closed.
    api = await createTestApp({ WORKERS: 'off', EVENTS_MAX_BACKLOG: '3', REDIS_KEY_PREFIX: `${t.config.redis.keyPrefix}-api` });
    stopping = await createTestApp({ WORKERS: 'off', REDIS_KEY_PREFIX: `${t.config.redis.keyPrefix}-stop` });
  });
  beforeEach(async () => {
    await t.reset();
    fake.behave({});
    org = await t.factory.org();
  });
  afterAll(async () => {
    await stopping.close();
    await api.close();
    await t.close();
    await fake.close();
  });

  describe('ingestion', () => {
    it('answers 202 with event_id once the row is committed, then processes it onto a thread whose external_id is the caller’s thread_id', async () => {
      const agent = await webhookAgent();
      const eventId = await accept(agent.headers, {
        text: 'I am looking for trail shoes',
        thread_id: '  order-1042  ',
        agent_variables: { order: 1042 },
      });
      const [row] = await t.dataSource.query(`SELECT agent_id, external_thread_id, text, agent_variables FROM events WHERE id = $1`, [
        eventId,
      ]);
      expect(row).toEqual({
        agent_id: agent.agentId,
        external_thread_id: 'order-1042',
        text: 'I am looking for trail shoes',
        agent_variables: { order: 1042 },
      });
      const [done] = await settled([eventId], agent.headers);
      expect(done).toEqual({
        event_id: eventId,
        status: 'completed',
        thread_id: expect.stringMatching(/^[0-9a-f]{24}$/),
        external_thread_id: 'order-1042',
        attempts: 1,
        created_at: expect.any(String),
        completed_at: expect.any(String),
      });
      const [thread] = await t.dataSource.query(`SELECT external_id, agent_id, user_id FROM threads WHERE id = $1`, [done.thread_id]);
      expect(thread).toEqual({ external_id: 'order-1042', agent_id: agent.agentId, user_id: 'order-1042' });
      const [turn] = await t.dataSource.query(
        `SELECT source, user_text, agent_variables, event_id, reply_text FROM ${TURNS_WITH_MESSAGES} WHERE thread_id = $1`,
        [done.thread_id],
      );
      expect(turn).toMatchObject({
        source: 'event',
        user_text: 'I am looking for trail shoes',
        agent_variables: { order: 1042 },
        event_id: eventId,
      });
      expect(turn.reply_text.length).toBeGreaterThan(0);
      // The management side (threads routes, when this build serves them) shows the caller's id as external_id.
      const managed = await t.http.get(`/management/v1/threads/${done.thread_id}`, org.headers);
      const served = !(managed.status === 404 && String(managed.body?.error?.message).startsWith('No route'));
      if (served) expect([managed.status, managed.body.external_id]).toEqual([200, 'order-1042']);
    });

    it('continues the conversation when thread_id is reused, and starts a new one when it is omitted or blank', async () => {
      const agent = await webhookAgent();
      const a1 = await accept(agent.headers, { text: 'show me jackets', thread_id: 'conv-a' });
      const a2 = await accept(agent.headers, { text: 'show me trail shoes', thread_id: 'conv-a' });
      const n1 = await accept(agent.headers, { text: 'show me jackets' });
      const n2 = await accept(agent.headers, { text: 'show me jackets', thread_id: '   ' });
      const [s1, s2, s3, s4] = await settled([a1, a2, n1, n2], agent.headers);
      expect(s1.thread_id).toBe(s2.thread_id);
      expect(new Set([s1.thread_id, s3.thread_id, s4.thread_id]).size).toBe(3);
      expect(s4.external_thread_id).toBeNull();
      const [thread] = await t.dataSource.query(`SELECT interaction_count FROM threads WHERE id = $1`, [s1.thread_id]);
      expect(thread.interaction_count).toBe(2);
      const users = await t.dataSource.query(`SELECT user_id FROM threads WHERE id = ANY($1) ORDER BY user_id`, [
        [s3.thread_id, s4.thread_id],
      ]);
      expect(users.map((u: any) => u.user_id).sort()).toEqual([`event:${n1}`, `event:${n2}`].sort());
    });

    it('runs on agent_variables alone, takes a string agent_variables.user_id as the end user, and ignores other top-level fields', async () => {
      const agent = await webhookAgent();
      const eventId = await accept(agent.headers, {
        agent_variables: { user_id: 'customer-7', cart: [1, 2] },
        agent_id: 'ignored',
        user_id: 'ignored',
        extra: { a: 1 },
      });
      const [done] = await settled([eventId], agent.headers);
      expect(done.status).toBe('completed');
      const [turn] = await t.dataSource.query(
        `SELECT user_id, user_text, agent_variables FROM ${TURNS_WITH_MESSAGES} WHERE event_id = $1`,
        [eventId],
      );
      expect(turn).toEqual({ user_id: 'customer-7', user_text: null, agent_variables: { user_id: 'customer-7', cart: [1, 2] } });
    });

    it('answers 422 with details for every body rule, and stores nothing', async () => {
      const agent = await webhookAgent();
      const cases: Array<[unknown, string]> = [
        [{}, 'text'],
        [{ thread_id: 'x' }, 'text'],
        [{ text: 42 }, 'text'],
        [{ text: '', agent_variables: { a: 1 } }, 'text'],
        [{ agent_variables: [1, 2] }, 'agent_variables'],
        [{ agent_variables: 'a=b' }, 'agent_variables'],
        [{ agent_variables: null }, 'agent_variables'],
        [{ text: 'hi', thread_id: 12 }, 'thread_id'],
        [{ text: 'hi', thread_id: ` ${'x'.repeat(256)} ` }, 'thread_id'],
        [[{ text: 'hi' }], 'body'],
      ];
      for (const [body, field] of cases) {
        const res = await t.http.post(EVENTS, body, agent.headers);
        expect({ body, status: res.status, code: res.body.error.code }).toEqual({ body, status: 422, code: 'validation_error' });
        expect(res.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      }
      const malformed = await t.http.request('POST', EVENTS, {
        raw: '{"text": ',
        headers: { ...agent.headers, 'content-type': 'application/json' },
      });
      expect(malformed.status).toBe(422);
      const none = await t.http.request('POST', EVENTS, { headers: agent.headers });
      expect(none.status).toBe(422);
      // 255 characters after trimming is the limit, not an error.
      expect((await t.http.post(EVENTS, { text: 'hi', thread_id: `  ${'y'.repeat(255)}  ` }, agent.headers)).status).toBe(202);
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM events`);
      expect(n).toBe(1);
    });

    it('bounds text at 16,384 characters (422 naming text beyond) and refuses strings PostgreSQL cannot store, storing nothing', async () => {
      const agent = await webhookAgent();
      const cases: Array<[unknown, string]> = [
        [{ text: 'x'.repeat(16_385) }, 'text'],
        [{ text: 'x\u0000' }, 'text'],
        [{ text: 'a\ud800b' }, 'text'],
        [{ text: 'hi', thread_id: 'order\u0000' }, 'thread_id'],
        [{ agent_variables: { 'user\u0000id': 'a' } }, 'agent_variables'],
        [{ agent_variables: { order: { lines: ['\udc00'] } } }, 'agent_variables.order.lines[0]'],
      ];
      for (const [body, field] of cases) {
        const res = await t.http.post(EVENTS, body, agent.headers);
        expect({ status: res.status, code: res.body.error.code, fields: res.body.error.details.map((d: any) => d.field) }).toEqual({
          status: 422,
          code: 'validation_error',
          fields: [field],
        });
      }
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM events`);
      expect(n).toBe(0);
      // The limits themselves are accepted: 16,384 characters, and a body nested 64 levels deep.
      expect((await t.http.post(EVENTS, { text: 'y'.repeat(16_384) }, agent.headers)).status).toBe(202);
      expect(
        (await t.http.post(EVENTS, { agent_variables: { a: JSON.parse(`${'['.repeat(62)}${']'.repeat(62)}`) } }, agent.headers)).status,
      ).toBe(202);
    });

    it('validates the body before resolving the agent: {} to an agent without a published version is 422, not 404', async () => {
      const draft = await t.factory.agent(org);
      const draftKey = await t.factory.agentApiKey(draft);
      const res = await t.http.post(EVENTS, {}, { 'x-agent-api-key': draftKey.key });
      expect([res.status, res.body.error.code, res.body.error.details[0].field]).toEqual([422, 'validation_error', 'text']);
      const gone = await webhookAgent();
      await t.dataSource.query(`UPDATE agents SET deleted_at = now() WHERE id = $1`, [gone.agentId]);
      expect((await t.http.post(EVENTS, { text: 42 }, gone.headers)).status).toBe(422);
    });

    it('stores every event of a burst of concurrent accepts (they share commits) before answering 202', async () => {
      const agent = await webhookAgent();
      const responses = await Promise.all(
        Array.from({ length: 120 }, (_, i) => t.http.post(EVENTS, { text: `burst ${i}`, thread_id: `burst-${i % 7}` }, agent.headers)),
      );
      expect(responses.every((r) => r.status === 202)).toBe(true);
      const ids = responses.map((r) => r.body.event_id as string);
      const rows: Array<{ id: string; text: string }> = await t.dataSource.query(`SELECT id, text FROM events WHERE id = ANY($1)`, [ids]);
      expect(rows.length).toBe(120);
      expect(new Set(ids).size).toBe(120);
      expect(Object.fromEntries(rows.map((r) => [r.id, r.text]))).toEqual(Object.fromEntries(ids.map((id, i) => [id, `burst ${i}`])));
      await settled(ids, agent.headers, 60_000);
    });

    it('fails only the event PostgreSQL refuses (422) when it shared a group-commit statement with valid events', async () => {
      const agent = await webhookAgent();
      const repository = t.app.get(EventsRepository);
      const insertMany = repository.insertMany.bind(repository);
      // A refusal the accept path does not foresee: the statement fails as a whole, as PostgreSQL's does. Slow
      // statements make the concurrent accepts queue up and share statements.
      const spy = jest.spyOn(repository, 'insertMany').mockImplementation(async (events) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (events.some((e) => e.text === 'poison')) {
          throw Object.assign(new DatabaseError('invalid input syntax', 0, 'error'), { code: '22P02' });
        }
        return insertMany(events);
      });
      try {
        const bodies = Array.from({ length: 60 }, (_, i) => ({ text: i % 20 === 10 ? 'poison' : `fine ${i}` }));
        const responses = await Promise.all(bodies.map((body) => t.http.post(EVENTS, body, agent.headers)));
        const poisoned = responses.filter((_, i) => bodies[i]!.text === 'poison');
        expect(poisoned.map((r) => [r.status, r.body.error.code, r.body.error.details[0].field])).toEqual(
          Array(3).fill([422, 'validation_error', 'body']),
        );
        expect(responses.filter((_, i) => bodies[i]!.text !== 'poison').map((r) => r.status)).toEqual(Array(57).fill(202));
        expect(spy.mock.calls.some(([events]) => events.length > 1 && events.some((e) => e.text === 'poison'))).toBe(true);
      } finally {
        spy.mockRestore();
      }
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM events WHERE text = 'poison'`);
      expect(n).toBe(0);
    });

    it('answers 413 webhooks.payload_too_large over 1 MiB', async () => {
      const agent = await webhookAgent();
      const res = await t.http.post(EVENTS, { text: 'x'.repeat(1024 * 1024 + 10) }, agent.headers);
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe('webhooks.payload_too_large');
    });

    it('answers 401 for a missing, invalid or revoked key, and for other credentials', async () => {
      const agent = await webhookAgent();
      const revoked = expectStatus(
        await t.http.post(`/management/v1/agents/${agent.agentId}/api-keys`, {}, org.headers),
        201,
        'second key',
      ).body;
      expectStatus(await t.http.delete(`/management/v1/agents/${agent.agentId}/api-keys/${revoked.id}`, org.headers), 204, 'revoke');
      const shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
      for (const headers of [
        {},
        { 'x-agent-api-key': 'agk_not-a-real-key' },
        { 'x-agent-api-key': revoked.api_key },
        shop.headers,
        org.headers,
      ]) {
        const res = await t.http.post(EVENTS, { text: 'hi' }, headers);
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('unauthorized');
      }
      expect((await t.http.get(`${EVENTS}/${'a'.repeat(24)}`)).status).toBe(401);
    });

    it('answers 401 once the agent’s project was deleted (deleting a project deletes its agents and their keys)', async () => {
      const agent = await webhookAgent();
      const [{ project_id }] = await t.dataSource.query(`SELECT project_id FROM agents WHERE id = $1`, [agent.agentId]);
      expectStatus(await t.http.delete(`/management/v1/projects/${project_id}`, org.headers), 204, 'delete project');
      const res = await t.http.post(EVENTS, { text: 'hi' }, agent.headers);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    });

    it('answers 404 not_found for a deleted agent, webhooks.no_active_version before a publish, webhooks.no_runtime_version for an unsupported bundle', async () => {
      const deleted = await webhookAgent();
      await t.dataSource.query(`UPDATE agents SET deleted_at = now() WHERE id = $1`, [deleted.agentId]);
      const gone = await t.http.post(EVENTS, { text: 'hi' }, deleted.headers);
      expect([gone.status, gone.body.error.code]).toEqual([404, 'not_found']);

      const draft = await t.factory.agent(org);
      const draftKey = await t.factory.agentApiKey(draft);
      const unpublished = await t.http.post(EVENTS, { text: 'hi' }, { 'x-agent-api-key': draftKey.key });
      expect([unpublished.status, unpublished.body.error.code]).toEqual([404, 'webhooks.no_active_version']);

      const stale = await webhookAgent();
      await t.dataSource.query(
        `UPDATE agent_revisions r SET bundle = jsonb_set(r.bundle, '{schema_version}', '99') FROM agents a WHERE a.id = $1 AND r.id = a.live_revision_id`,
        [stale.agentId],
      );
      const old = await t.http.post(EVENTS, { text: 'hi' }, stale.headers);
      expect([old.status, old.body.error.code]).toEqual([404, 'webhooks.no_runtime_version']);
      expect(old.body.error.message).toContain('republish');
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM events`);
      expect(n).toBe(0);
    });

    it('answers 502 upstream_unavailable when the event store cannot be reached, with nothing stored', async () => {
      const agent = await webhookAgent();
      expect((await t.http.post(EVENTS, { text: 'warm the caches' }, agent.headers)).status).toBe(202);
      const repository = t.app.get(EventsRepository);
      const spy = jest
        .spyOn(repository, 'insertMany')
        .mockRejectedValueOnce(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
      try {
        const res = await t.http.post(EVENTS, { text: 'hi', thread_id: 'down' }, agent.headers);
        expect(res.status).toBe(502);
        expect(res.body.error.code).toBe('upstream_unavailable');
      } finally {
        spy.mockRestore();
      }
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM events WHERE external_thread_id = 'down'`);
      expect(n).toBe(0);
    });
  });

  describe('load shedding and shutdown (an API-only instance: WORKERS=off)', () => {
    it('answers 503 internal_error with Retry-After once the pending backlog reaches EVENTS_MAX_BACKLOG', async () => {
      const agent = await webhookAgent();
      expect(await api.app.get(EventsIngestService).sampleBacklog()).toBe(0);
      const statuses: number[] = [];
      let shed: any;
      for (let i = 0; i < 8 && !shed; i += 1) {
        const res = await api.http.post(EVENTS, { text: `e${i}`, thread_id: 'backlog' }, agent.headers);
        statuses.push(res.status);
        if (res.status === 503) shed = res;
      }
      expect(shed).toBeDefined();
      expect(shed.body.error.code).toBe('internal_error');
      expect(Number(shed.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(statuses.slice(0, 3)).toEqual([202, 202, 202]);
    });

    it('answers 503 with Retry-After once shutdown has begun', async () => {
      const agent = await webhookAgent();
      expect((await stopping.http.post(EVENTS, { text: 'before' }, agent.headers)).status).toBe(202);
      stopping.app.get(EventsIngestService).beginShutdown();
      const res = await stopping.http.post(EVENTS, { text: 'after' }, agent.headers);
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('internal_error');
      expect(res.headers.get('retry-after')).toBe('5');
    });

    it('a worker picks up committed events whose wake-up never reached it (published on another Redis prefix): it polls', async () => {
      const agent = await webhookAgent();
      expect(await api.app.get(EventsIngestService).sampleBacklog()).toBe(0);
      const eventId = (await api.http.post(EVENTS, { text: 'show me jackets', thread_id: 'swept' }, agent.headers)).body.event_id;
      const [done] = await settled([eventId], agent.headers, 15_000);
      expect(done.status).toBe('completed');
      expect(done.attempts).toBe(1);
    });
  });

  describe('status', () => {
    it('is visible to the same agent’s key only: 404 for another agent’s event and unknown ids, 422 for malformed ids', async () => {
      const mine = await webhookAgent();
      const theirs = await webhookAgent();
      const eventId = await accept(mine.headers, { text: 'hi' });
      expect((await t.http.get(`${EVENTS}/${eventId}`, mine.headers)).status).toBe(200);
      expect((await t.http.get(`${EVENTS}/${eventId.toUpperCase()}`, mine.headers)).status).toBe(200);
      const other = await t.http.get(`${EVENTS}/${eventId}`, theirs.headers);
      expect([other.status, other.body.error.code]).toEqual([404, 'not_found']);
      expect((await t.http.get(`${EVENTS}/${'0'.repeat(24)}`, mine.headers)).status).toBe(404);
      const bad = await t.http.get(`${EVENTS}/nope`, mine.headers);
      expect(bad.status).toBe(422);
      expect(bad.body.error.details[0].field).toBe('eventId');
    });
  });

  describe('processing', () => {
    it('processes 50 events of one thread one at a time in acceptance order under processor concurrency 8', async () => {
      expect(t.config.events.concurrency).toBe(8);
      const agent = await webhookAgent();
      const ids: string[] = [];
      for (let i = 0; i < 50; i += 1) ids.push(await accept(agent.headers, { text: `message ${i}`, thread_id: 'ordered' }));
      const done = await settled(ids, agent.headers, 60_000);
      expect(done.every((d) => d.status === 'completed' && d.attempts === 1)).toBe(true);
      expect(new Set(done.map((d) => d.thread_id)).size).toBe(1);
      const turns: Array<{ event_id: string; seq: number; user_text: string }> = await t.dataSource.query(
        `SELECT event_id, seq, user_text FROM ${TURNS_WITH_MESSAGES} WHERE thread_id = $1 ORDER BY seq`,
        [done[0].thread_id],
      );
      expect(turns.map((r) => r.event_id)).toEqual(ids);
      expect(turns.map((r) => r.seq)).toEqual(ids.map((_, i) => i + 1));
      expect(turns.map((r) => r.user_text)).toEqual(ids.map((_, i) => `message ${i}`));
    });

    it('makes progress on other threads while one thread’s head event is stuck retrying', async () => {
      const agent = await webhookAgent({ ...shopBundle, model: { provider: 'openai', name: 'gpt-4o-mini' } });
      const stuck = await accept(agent.headers, { text: 'show me jackets [[fail:503]]', thread_id: 'stuck' });
      const behind = await accept(agent.headers, { text: 'show me shoes', thread_id: 'stuck' });
      const others: string[] = [];
      for (let thread = 0; thread < 4; thread += 1) {
        for (let i = 0; i < 5; i += 1) others.push(await accept(agent.headers, { text: `shoes ${i}`, thread_id: `free-${thread}` }));
      }
      const done = await settled(others, agent.headers);
      expect(done.every((d) => d.status === 'completed')).toBe(true);
      // The stuck thread's second event waited behind its head, which fails after EVENTS_MAX_ATTEMPTS.
      const [head, second] = await settled([stuck, behind], agent.headers);
      expect(head).toMatchObject({ status: 'failed', attempts: 3, error: expect.stringContaining('upstream') });
      expect(head.completed_at).toEqual(expect.any(String));
      expect(second.status).toBe('completed');
      expect(Date.parse(second.completed_at)).toBeGreaterThanOrEqual(Date.parse(head.completed_at));
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM interactions WHERE event_id = $1`, [stuck]);
      expect(n).toBe(0);
    });

    it('retries a transient failure with backoff and completes when the provider recovers', async () => {
      const agent = await webhookAgent({ ...shopBundle, model: { provider: 'openai', name: 'gpt-4o-mini' } });
      fake.behave({ failStatus: 503 });
      const eventId = await accept(agent.headers, { text: 'show me jackets', thread_id: 'flaky' });
      const retrying = await waitFor(
        async () => {
          const s = await status(eventId, agent.headers);
          return s.attempts >= 1 && s.error ? s : undefined;
        },
        'a failed first attempt',
        15_000,
      );
      expect(retrying.error).toContain('upstream');
      fake.behave({});
      const [done] = await settled([eventId], agent.headers);
      expect(done.status).toBe('completed');
      expect(done.attempts).toBeGreaterThanOrEqual(2);
      expect(done).not.toHaveProperty('error');
    });

    it('fails at once, without retrying, when the agent can no longer answer (a client-side error)', async () => {
      const agent = await webhookAgent();
      expect(await api.app.get(EventsIngestService).sampleBacklog()).toBe(0);
      // The API instance has the agent cached as live (≤ 2 s; warmed by an accepted event of another conversation),
      // so it still accepts after the delete; the processing instance (through its polling claim) finds the agent gone.
      expect((await api.http.post(EVENTS, { text: 'warm', thread_id: 'warm' }, agent.headers)).status).toBe(202);
      await t.dataSource.query(`UPDATE agents SET deleted_at = now(), live_version_id = NULL, live_revision_id = NULL WHERE id = $1`, [
        agent.agentId,
      ]);
      const eventId = (await api.http.post(EVENTS, { text: 'hi', thread_id: 'gone' }, agent.headers)).body.event_id;
      const row = await waitFor(
        async () => {
          const [r] = await t.dataSource.query(`SELECT status, attempts, error FROM events WHERE id = $1`, [eventId]);
          return r.status === 'failed' ? r : undefined;
        },
        'the event to fail',
        15_000,
      );
      expect(row).toEqual({ status: 'failed', attempts: 1, error: expect.stringContaining('not_found') });
    });

    it('fails an event whose processing can never succeed after 1 attempt, with its reason, and runs the next event of its conversation', async () => {
      const agent = await webhookAgent();
      const messaging = t.app.get(TurnPipeline);
      const send = messaging.run.bind(messaging);
      // Deterministic failures inside the turn: the engine's failed allocation (what a 100,000-character text
      // caused) and PostgreSQL refusing the turn's data as too deeply nested.
      const spy = jest.spyOn(messaging, 'run').mockImplementation(async (caller, request, onEvent) => {
        if (request.text === 'engine blow-up') throw new RangeError('Invalid string length');
        if (request.text === 'too complex') {
          throw Object.assign(new DatabaseError('stack depth limit exceeded', 0, 'error'), { code: '54001' });
        }
        return send(caller, request, onEvent);
      });
      try {
        const blowUp = await accept(agent.headers, { text: 'engine blow-up', thread_id: 'doomed-1' });
        const next1 = await accept(agent.headers, { text: 'show me jackets', thread_id: 'doomed-1' });
        const complex = await accept(agent.headers, { text: 'too complex', thread_id: 'doomed-2' });
        const next2 = await accept(agent.headers, { text: 'show me shoes', thread_id: 'doomed-2' });
        const [s1, s2, s3, s4] = await settled([blowUp, next1, complex, next2], agent.headers);
        expect(s1).toMatchObject({ status: 'failed', attempts: 1, error: expect.stringContaining('Invalid string length') });
        expect(s3).toMatchObject({ status: 'failed', attempts: 1, error: expect.stringMatching(/^validation_error: .*stack depth/) });
        expect([s2.status, s4.status]).toEqual(['completed', 'completed']);
        expect(s2.completed_at >= s1.completed_at && s4.completed_at >= s3.completed_at).toBe(true);
      } finally {
        spy.mockRestore();
      }
    });

    it('keeps its lease while a turn runs longer than EVENTS_LEASE_MS: renewed, never taken over', async () => {
      const agent = await webhookAgent();
      const messaging = t.app.get(TurnPipeline);
      const send = messaging.run.bind(messaging);
      const leaseMs = t.config.events.leaseMs;
      // Half again as long as the lease: without renewal this process's own claim loop would take the event over.
      const spy = jest.spyOn(messaging, 'run').mockImplementation(async (caller, request, onEvent) => {
        if (request.text === 'slow turn') await new Promise((resolve) => setTimeout(resolve, leaseMs * 1.5));
        return send(caller, request, onEvent);
      });
      try {
        const eventId = await accept(agent.headers, { text: 'slow turn', thread_id: 'slow' });
        const [done] = await settled([eventId], agent.headers, leaseMs * 5);
        expect(done).toMatchObject({ status: 'completed', attempts: 1 });
        const [row] = await t.dataSource.query(`SELECT takeovers, lease_owner FROM events WHERE id = $1`, [eventId]);
        expect(row).toEqual({ takeovers: 0, lease_owner: t.app.get(EventsService).leaseOwner });
        const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM interactions WHERE event_id = $1`, [eventId]);
        expect(n).toBe(1);
      } finally {
        spy.mockRestore();
      }
    });

    it('is idempotent per event: repeated wake-ups and concurrent claims produce one reply', async () => {
      const agent = await webhookAgent();
      const wakeup = t.app.get(EventsWakeup);
      const events = t.app.get(EventsService);
      const eventId = await accept(agent.headers, { text: 'show me jackets', thread_id: 'dup' });
      wakeup.nudge();
      setImmediate(() => wakeup.nudge());
      await Promise.all([events.process(eventId), events.process(eventId), events.process(eventId)]);
      await settled([eventId], agent.headers);
      // A worker that wrote the turn and died before recording it: the next attempt completes without a second turn.
      await t.dataSource.query(`UPDATE events SET status = 'processing', locked_until = now() - interval '1 second' WHERE id = $1`, [
        eventId,
      ]);
      expect(await events.process(eventId)).toBe('completed');
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM interactions WHERE event_id = $1`, [eventId]);
      expect(n).toBe(1);
      const [row] = await t.dataSource.query(`SELECT status, attempts FROM events WHERE id = $1`, [eventId]);
      expect(row).toEqual({ status: 'completed', attempts: 2 });
    });
  });
});
