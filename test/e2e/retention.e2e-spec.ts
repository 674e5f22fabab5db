import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { newId } from '../../src/common/ids/new-id.js';
import { JobName, QueueName } from '../../src/queue/job-map.js';
import { JobRunner } from '../../src/queue/job-runner.js';
import { RetentionProcessor } from '../../src/modules/retention/retention.processor.js';
import type { TestOrg } from '../factories/factory.js';
import { expectStatus, liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import { openSse } from '../support/sse-client.js';
import { insertInteraction, insertThread, type ThreadOwner } from '../support/threads.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';

const SEND = '/messaging/v1/messages';
const EVENTS = '/messaging/v1/events';
const DAY = 86_400_000;

describe('thread retention and erasure', () => {
  let t: TestApp;
  let redis: Redis;
  let org: TestOrg;
  let shop: LiveTestAgent;
  let projectId: string;

  beforeAll(async () => {
    // Small batches, so that a deletion of a few threads already takes several.
    t = await createTestApp({ RETENTION_BATCH_SIZE: '3' });
    redis = new Redis(t.config.redis.url);
  });
  afterAll(async () => {
    redis.disconnect();
    await t.close();
  });
  beforeEach(async () => {
    await t.reset();
    org = await t.factory.org();
    shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    projectId = (await t.http.get(`/management/v1/agents/${shop.agentId}`, org.headers)).body.project_id;
  });

  const count = async (sql: string, params: unknown[]): Promise<number> =>
    Number((await t.dataSource.query<Array<{ n: string }>>(sql, params))[0]!.n);

  /** Every row and key tied to these threads, by kind. */
  async function leftovers(threadIds: string[], interactionIds: string[]) {
    return {
      threads: await count(`SELECT count(*) AS n FROM threads WHERE id = ANY($1)`, [threadIds]),
      interactions: await count(`SELECT count(*) AS n FROM interactions WHERE thread_id = ANY($1)`, [threadIds]),
      events: await count(`SELECT count(*) AS n FROM events WHERE thread_id = ANY($1)`, [threadIds]),
      channel_messages: await count(`SELECT count(*) AS n FROM channel_messages WHERE thread_id = ANY($1)`, [threadIds]),
      replay_keys: interactionIds.length
        ? await redis.exists(...interactionIds.flatMap((id) => [replayKey(id), `${replayKey(id)}:owner`]))
        : 0,
    };
  }
  const NOTHING = { threads: 0, interactions: 0, events: 0, channel_messages: 0, replay_keys: 0 };

  /** The organization's audit records of one action, oldest first. */
  const audits = (organizationId: string, action: string) =>
    t.dataSource.query<Array<Record<string, unknown>>>(
      `SELECT actor_kind, actor_id, resource_type, resource_id, before, after FROM audit_events
        WHERE organization_id = $1 AND action = $2 ORDER BY created_at, id`,
      [organizationId, action],
    );

  const replayKey = (interactionId: string) => `${t.config.redis.keyPrefix}:replay:${interactionId}`;

  async function send(text: string, userId: string, threadId?: string): Promise<{ threadId: string; interactionId: string }> {
    const res = expectStatus(await t.http.post(SEND, { text, user_id: userId, thread_id: threadId }, shop.headers), 200, 'send');
    const rows = await t.dataSource.query<Array<{ id: string }>>(
      `SELECT id FROM interactions WHERE thread_id = $1 ORDER BY seq DESC LIMIT 1`,
      [res.body.thread_id],
    );
    return { threadId: res.body.thread_id as string, interactionId: rows[0]!.id };
  }

  /** A streamed turn: its replay buffer is in Redis. */
  async function stream(text: string, userId: string, threadId: string): Promise<string> {
    const sse = await openSse(t.baseUrl, '/messaging/v1/messages/stream', {
      headers: shop.headers,
      body: { text, user_id: userId, thread_id: threadId },
    });
    expect(sse.status).toBe(200);
    const events = await sse.collect((e) => e.event === 'done');
    const interactionId = events.find((e) => e.event === 'thread')!.data.interaction_id as string;
    expect(await redis.exists(replayKey(interactionId))).toBe(1);
    return interactionId;
  }

  /** An events-webhook turn (processed by the in-process worker); returns its thread. */
  async function eventTurn(externalThreadId: string): Promise<string> {
    const key = expectStatus(await t.http.post(`/management/v1/agents/${shop.agentId}/api-keys`, {}, org.headers), 201, 'api key').body;
    const accepted = expectStatus(
      await t.http.post(EVENTS, { text: 'where is my order', thread_id: externalThreadId }, { 'x-agent-api-key': key.api_key }),
      202,
      'event',
    ).body;
    return waitFor(async () => {
      const rows = await t.dataSource.query<Array<{ thread_id: string | null; status: string }>>(
        `SELECT thread_id, status FROM events WHERE id = $1`,
        [accepted.event_id],
      );
      return rows[0]?.status === 'completed' ? rows[0].thread_id : undefined;
    }, 'the event to complete');
  }

  /** A channel message on the thread, as the channels module records them. */
  async function channelMessage(threadId: string): Promise<void> {
    await t.dataSource.query(
      `INSERT INTO channel_messages (id, organization_id, agent_id, thread_id, channel, direction, kind, from_number, to_number, body, status)
       VALUES ($1, $2, $3, $4, 'sms', 'inbound', 'inbound', '+15550001', '+15550002', 'my order number is 42', 'received')`,
      [newId(), org.id, shop.agentId, threadId],
    );
  }

  /** Moves a thread's last activity (and creation) `days` into the past, as if nobody wrote to it since. */
  async function idle(threadId: string, days: number): Promise<void> {
    const at = new Date(Date.now() - days * DAY);
    await t.dataSource.query(`UPDATE threads SET last_interaction_at = $2, created_at = $2 WHERE id = $1`, [threadId, at]);
  }

  /** The agent's and the project's usage over the ranges that read the roll-up, interactions, and both. */
  async function usageAnswers(): Promise<unknown[]> {
    const now = Date.now();
    const ranges = [
      '',
      `?created_from=${new Date(now - 3_600_000).toISOString()}`,
      `?created_from=${new Date(now - 45 * DAY + 1234).toISOString()}&created_to=${new Date(now + 60_000).toISOString()}`,
      `?created_from=${new Date(now - 45 * DAY - 5 * 3_600_000).toISOString()}&created_to=${new Date(now - 40 * DAY).toISOString()}`,
    ];
    const answers = [];
    for (const range of ranges) {
      for (const path of [`/management/v1/agents/${shop.agentId}/usage`, `/management/v1/projects/${projectId}/usage`]) {
        answers.push(expectStatus(await t.http.get(`${path}${range}`, org.headers), 200, 'usage').body);
      }
    }
    return answers;
  }

  async function runRetentionJob(): Promise<{ threads: number }> {
    const queue = t.app.get<Queue>(getQueueToken(QueueName.Retention));
    const job = await queue.add(JobName.RunRetention, {});
    return (await job.finished()) as { threads: number };
  }

  describe('retention job', () => {
    it('deletes exactly the expired threads with all their rows and keys; usage answers do not change', async () => {
      // Expired: a conversation with three sends and a streamed turn, a channel message, and an events-webhook thread.
      const first = await send('I am looking for trail shoes', 'u1');
      await send('show me jackets', 'u1', first.threadId);
      await send('where is my order', 'u1', first.threadId);
      const streamed = await stream('anything under $100?', 'u1', first.threadId);
      await channelMessage(first.threadId);
      const evented = await eventTurn('crm-ticket-1');
      // An old turn (45 days ago) on an old thread: its day is in the usage_daily roll-up.
      const owner: ThreadOwner = { organizationId: org.id, projectId, agentId: shop.agentId };
      const ancient = await insertThread(t, owner, { createdAt: new Date(Date.now() - 45 * DAY) });
      await insertInteraction(t, owner, ancient, { createdAt: new Date(Date.now() - 45 * DAY + 5000), inputTokens: 11, outputTokens: 7 });
      // Kept: active yesterday (under the 30 days), a thread just created without a turn, and another organization's old thread.
      const recent = await send('hello', 'u2');
      await idle(recent.threadId, 29);
      const empty = await insertThread(t, owner);
      const otherOrg = await t.factory.org();
      const otherProject = await t.factory.project(otherOrg);
      const otherAgent = await t.factory.agent(otherOrg, { project: otherProject });
      const foreign = await insertThread(t, { organizationId: otherOrg.id, projectId: otherProject.id, agentId: otherAgent.id });
      await insertInteraction(t, { organizationId: otherOrg.id, projectId: otherProject.id, agentId: otherAgent.id }, foreign);
      await idle(foreign, 400);
      for (const id of [first.threadId, evented]) await idle(id, 31);

      expectStatus(
        await t.http.patch(`/management/v1/projects/${projectId}`, { thread_retention_days: 30 }, org.headers),
        200,
        'retention',
      );
      const usageBefore = await usageAnswers();
      const expiredIds = [first.threadId, evented, ancient];
      const interactionIds = [first.interactionId, streamed];
      const before = await leftovers(expiredIds, interactionIds);
      expect(before).toEqual({ threads: 3, interactions: 6, events: 1, channel_messages: 1, replay_keys: 2 });

      const summary = await runRetentionJob();

      expect(summary).toMatchObject({ projects: 1, threads: 3, interactions: 6, events: 1 });
      expect(await leftovers(expiredIds, interactionIds)).toEqual(NOTHING);
      const kept = await t.dataSource.query<Array<{ id: string }>>(`SELECT id FROM threads ORDER BY id`);
      expect(kept.map((r) => r.id)).toEqual([recent.threadId, empty, foreign].sort());
      expect(await count(`SELECT count(*) AS n FROM interactions WHERE thread_id = $1`, [foreign])).toBe(1);
      expect(await usageAnswers()).toEqual(usageBefore);
      expect(await audits(org.id, 'thread.delete')).toEqual([
        {
          actor_kind: 'system',
          actor_id: 'thread-retention',
          resource_type: 'project',
          resource_id: projectId,
          before: { threads: 3, interactions: 6, events: 1, webhook_deliveries: 0 },
          after: { reason: 'retention', thread_retention_days: 30, last_activity_before: expect.any(String) },
        },
      ]);
      expect(await audits(otherOrg.id, 'thread.delete')).toEqual([]);
      // Lists and reads no longer show them; a send naming a deleted thread is 404 (no new thread is made for it).
      const list = expectStatus(await t.http.get(`/management/v1/threads?project_id=${projectId}`, org.headers), 200, 'list').body;
      expect(list.results.map((r: { id: string }) => r.id).sort()).toEqual([recent.threadId, empty].sort());
      expect((await t.http.get(`/management/v1/threads/${first.threadId}`, org.headers)).status).toBe(404);
      const late = await t.http.post(SEND, { text: 'still there?', user_id: 'u1', thread_id: first.threadId }, shop.headers);
      expect(late.status).toBe(404);
      expect(late.body.error.code).toBe('not_found');
      // The audit of the run, the next run and null retention: nothing more goes.
      expect((await runRetentionJob()).threads).toBe(0);
      expect(await audits(org.id, 'thread.delete')).toHaveLength(1);
      expectStatus(await t.http.patch(`/management/v1/projects/${projectId}`, { thread_retention_days: null }, org.headers), 200, 'keep');
      await idle(recent.threadId, 400);
      expect((await runRetentionJob()).threads).toBe(0);
      expect(await count(`SELECT count(*) AS n FROM threads WHERE id = $1`, [recent.threadId])).toBe(1);
    });

    it('deletes in bounded batches until every expired thread is gone', async () => {
      const owner: ThreadOwner = { organizationId: org.id, projectId, agentId: shop.agentId };
      const ids: string[] = [];
      for (let i = 0; i < 7; i += 1) {
        const id = await insertThread(t, owner, { createdAt: new Date(Date.now() - 10 * DAY) });
        await insertInteraction(t, owner, id, { createdAt: new Date(Date.now() - 10 * DAY), inputTokens: 3 });
        ids.push(id);
      }
      expectStatus(await t.http.patch(`/management/v1/projects/${projectId}`, { thread_retention_days: 1 }, org.headers), 200, 'retention');
      const processor = t.app.get(RetentionProcessor);
      expect(t.config.retention.batchSize).toBe(3);
      const summary = await processor.run();
      expect(summary).toMatchObject({ threads: 7, interactions: 7, batches: 3, stoppedEarly: false });
      expect(await count(`SELECT count(*) AS n FROM threads WHERE id = ANY($1)`, [ids])).toBe(0);
      // One audit record per batch (its own transaction), counts only.
      const records = await audits(org.id, 'thread.delete');
      expect(records.map((r) => (r.before as { threads: number }).threads)).toEqual([3, 3, 1]);
    });

    it('is one repeatable job however many instances schedule it', async () => {
      const runner = t.app.get(JobRunner);
      const queue = t.app.get<Queue>(getQueueToken(QueueName.Retention));
      await runner.schedule(JobName.RunRetention);
      await runner.schedule(JobName.RunRetention);
      const repeatable = (await queue.getRepeatableJobs()).filter((job) => job.name === JobName.RunRetention);
      expect(repeatable).toEqual([expect.objectContaining({ every: t.config.retention.intervalSeconds * 1000, id: 'thread-retention' })]);
      const delayed = (await queue.getDelayed()).filter((job) => job.name === JobName.RunRetention);
      expect(delayed).toHaveLength(1);
    });
  });

  describe('DELETE /management/v1/threads/{threadId}', () => {
    it('erases the thread now with its rows and replay buffers; usage stays; another tenant cannot', async () => {
      const a = await send('I am looking for trail shoes', 'u1');
      const streamed = await stream('show me jackets', 'u1', a.threadId);
      await channelMessage(a.threadId);
      const b = await send('hello', 'u1');
      const usageBefore = await usageAnswers();

      const other = await t.factory.org();
      expect((await t.http.delete(`/management/v1/threads/${a.threadId}`, other.headers)).status).toBe(404);
      expect(await leftovers([a.threadId], [a.interactionId, streamed])).toMatchObject({ threads: 1, interactions: 2, replay_keys: 2 });

      const res = await t.http.delete(`/management/v1/threads/${a.threadId}`, org.headers);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await leftovers([a.threadId], [a.interactionId, streamed])).toEqual(NOTHING);
      expect(await count(`SELECT count(*) AS n FROM interactions WHERE thread_id = $1`, [b.threadId])).toBe(1);
      expect(await audits(org.id, 'thread.delete')).toEqual([
        {
          actor_kind: 'org_api_key',
          actor_id: expect.any(String),
          resource_type: 'thread',
          resource_id: a.threadId,
          before: { threads: 1, interactions: 2, events: 0, webhook_deliveries: 0 },
          after: { reason: 'erasure' },
        },
      ]);
      expect(await audits(other.id, 'thread.delete')).toEqual([]);
      expect(await usageAnswers()).toEqual(usageBefore);
      expect((await t.http.get(`/management/v1/threads/${a.threadId}/trace`, org.headers)).status).toBe(404);
      expect((await t.http.get(`/management/v1/interactions/${a.interactionId}/trace`, org.headers)).status).toBe(404);
      const resumed = await openSse(t.baseUrl, '/messaging/v1/messages/stream', { headers: shop.headers, lastEventId: `${streamed}:1` });
      expect(resumed.status).toBe(404);
      expect((await t.http.delete(`/management/v1/threads/${a.threadId}`, org.headers)).status).toBe(404);
      expect(await audits(org.id, 'thread.delete')).toHaveLength(1);
      const late = await t.http.post(SEND, { text: 'hello again', user_id: 'u1', thread_id: a.threadId }, shop.headers);
      expect(late.status).toBe(404);
    });

    it('a send racing the deletion of its thread answers 404 and writes nothing', async () => {
      const a = await send('I am looking for trail shoes', 'u1');
      // Another session deletes the thread and holds its transaction open; the send reads the thread (the delete is
      // not committed yet), then waits on its write; the delete commits; the write finds the thread gone.
      const deleter = await t.dataSource.createQueryRunner();
      await deleter.connect();
      try {
        await deleter.startTransaction();
        await deleter.query(`DELETE FROM threads WHERE id = $1`, [a.threadId]);
        const racing = t.http.post(SEND, { text: 'show me jackets', user_id: 'u1', thread_id: a.threadId }, shop.headers);
        await waitFor(async () => {
          const waiting = await t.dataSource.query<Array<{ n: string }>>(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
          );
          return Number(waiting[0]!.n) > 0;
        }, 'the send to wait for the thread row');
        await deleter.commitTransaction();
        const res = await racing;
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      } finally {
        await deleter.release();
      }
      expect(await count(`SELECT count(*) AS n FROM interactions WHERE thread_id = $1`, [a.threadId])).toBe(0);
    });

    it('answers 401 without credentials and 422 for a malformed id', async () => {
      const a = await send('hello', 'u1');
      expect((await t.http.delete(`/management/v1/threads/${a.threadId}`)).status).toBe(401);
      expect((await t.http.delete(`/management/v1/threads/${a.threadId}`, { 'x-organization-api-key': 'oak_wrong' })).status).toBe(401);
      const bad = await t.http.delete('/management/v1/threads/not-an-id', org.headers);
      expect(bad.status).toBe(422);
      expect(bad.body.error.details).toEqual([expect.objectContaining({ field: 'threadId' })]);
      expect(await count(`SELECT count(*) AS n FROM threads WHERE id = $1`, [a.threadId])).toBe(1);
    });
  });

  describe('DELETE /management/v1/threads?user_id=', () => {
    it("erases every thread of the end user in the organization, and no one else's", async () => {
      const owner: ThreadOwner = { organizationId: org.id, projectId, agentId: shop.agentId };
      const mine = [await send('I am looking for trail shoes', 'user 42/ü'), await send('hello', 'user 42/ü')];
      await send('show me jackets', 'user 42/ü', mine[0]!.threadId);
      const channel = await insertThread(t, owner, { userId: 'user 42/ü' });
      await channelMessage(channel);
      const someoneElse = await send('hello', 'user-43');
      const otherOrg = await t.factory.org();
      const otherProject = await t.factory.project(otherOrg);
      const otherAgent = await t.factory.agent(otherOrg, { project: otherProject });
      const foreign = await insertThread(
        t,
        { organizationId: otherOrg.id, projectId: otherProject.id, agentId: otherAgent.id },
        { userId: 'user 42/ü' },
      );
      const usageBefore = await usageAnswers();

      const res = await t.http.delete(`/management/v1/threads?user_id=${encodeURIComponent('user 42/ü')}`, org.headers);

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user_id: 'user 42/ü', deleted_threads: 3, deleted_interactions: 3, deleted_events: 0 });
      const ids = [...mine.map((m) => m.threadId), channel];
      expect(await leftovers(ids, [])).toEqual(NOTHING);
      expect(await count(`SELECT count(*) AS n FROM threads WHERE id = ANY($1)`, [[someoneElse.threadId, foreign]])).toBe(2);
      expect(await usageAnswers()).toEqual(usageBefore);
      const digest = `sha256:${createHash('sha256').update('user 42/ü').digest('hex')}`;
      const records = await audits(org.id, 'thread.delete');
      expect(records).toEqual([
        {
          actor_kind: 'org_api_key',
          actor_id: expect.any(String),
          resource_type: 'end_user',
          resource_id: digest,
          before: { threads: 3, interactions: 3, events: 0, webhook_deliveries: 0 },
          after: { reason: 'erasure' },
        },
      ]);
      expect(JSON.stringify(records)).not.toContain('user 42');
      const again = await t.http.delete(`/management/v1/threads?user_id=${encodeURIComponent('user 42/ü')}`, org.headers);
      expect(again.body).toEqual({ user_id: 'user 42/ü', deleted_threads: 0, deleted_interactions: 0, deleted_events: 0 });
      expect(await audits(org.id, 'thread.delete')).toHaveLength(1);
    });

    it('answers 422 naming user_id when it is missing, empty or too long, and 401 without credentials', async () => {
      const a = await send('hello', 'u1');
      for (const query of ['', '?user_id=', `?user_id=${'x'.repeat(256)}`, '?user_id=u1&project_id=x']) {
        const res = await t.http.delete(`/management/v1/threads${query}`, org.headers);
        expect(res.status).toBe(422);
        expect(res.body.error.code).toBe('validation_error');
        const fields = new Set(res.body.error.details.map((d: { field: string }) => d.field));
        expect(fields).toEqual(new Set([query.includes('project_id') ? 'project_id' : 'user_id']));
      }
      expect((await t.http.delete('/management/v1/threads?user_id=u1')).status).toBe(401);
      expect(await count(`SELECT count(*) AS n FROM threads WHERE id = $1`, [a.threadId])).toBe(1);
    });
  });

  describe('PATCH /management/v1/projects/{projectId}', () => {
    it('sets, shows and clears thread_retention_days, and renames', async () => {
      const get = async () => expectStatus(await t.http.get(`/management/v1/projects/${projectId}`, org.headers), 200, 'get').body;
      expect((await get()).thread_retention_days).toBeNull();
      const set = await t.http.patch(`/management/v1/projects/${projectId}`, { thread_retention_days: 90 }, org.headers);
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ id: projectId, thread_retention_days: 90 });
      expect((await get()).thread_retention_days).toBe(90);
      const renamed = await t.http.patch(`/management/v1/projects/${projectId}`, { name: 'Storefront EU' }, org.headers);
      expect(renamed.body).toMatchObject({ name: 'Storefront EU', thread_retention_days: 90 });
      const cleared = await t.http.patch(`/management/v1/projects/${projectId}`, { thread_retention_days: null }, org.headers);
      expect(cleared.body).toMatchObject({ name: 'Storefront EU', thread_retention_days: null });
      const list = (await t.http.get('/management/v1/projects', org.headers)).body;
      expect(list.results.find((p: { id: string }) => p.id === projectId)).toMatchObject({ thread_retention_days: null });
      const records = await audits(org.id, 'project.update');
      expect(records.map((r) => [r.before, r.after])).toEqual([
        [
          { name: 'Messaging tests', thread_retention_days: null },
          { name: 'Messaging tests', thread_retention_days: 90 },
        ],
        [
          { name: 'Messaging tests', thread_retention_days: 90 },
          { name: 'Storefront EU', thread_retention_days: 90 },
        ],
        [
          { name: 'Storefront EU', thread_retention_days: 90 },
          { name: 'Storefront EU', thread_retention_days: null },
        ],
      ]);
    });

    it('refuses out-of-range and wrongly typed values with 422 naming the field, and changes nothing', async () => {
      expectStatus(await t.http.patch(`/management/v1/projects/${projectId}`, { thread_retention_days: 7 }, org.headers), 200, 'set');
      const cases: Array<[unknown, string]> = [
        [{ thread_retention_days: 0 }, 'thread_retention_days'],
        [{ thread_retention_days: 3651 }, 'thread_retention_days'],
        [{ thread_retention_days: 1.5 }, 'thread_retention_days'],
        [{ thread_retention_days: '30' }, 'thread_retention_days'],
        [{ thread_retention_days: -1 }, 'thread_retention_days'],
        [{ thread_retention_days: 2 ** 53 }, 'thread_retention_days'],
        [{ name: 'x' }, 'name'],
        [{ name: null }, 'name'],
        [{ organization_id: newId() }, 'organization_id'],
      ];
      for (const [body, field] of cases) {
        const res = await t.http.patch(`/management/v1/projects/${projectId}`, body, org.headers);
        expect(res.status).toBe(422);
        expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      }
      const project = (await t.http.get(`/management/v1/projects/${projectId}`, org.headers)).body;
      expect(project).toMatchObject({ thread_retention_days: 7, name: 'Messaging tests' });
      expect(await audits(org.id, 'project.update')).toHaveLength(1);
    });

    it("answers 404 for another organization's or a deleted project, 401 without credentials", async () => {
      const other = await t.factory.org();
      expect((await t.http.patch(`/management/v1/projects/${projectId}`, { thread_retention_days: 1 }, other.headers)).status).toBe(404);
      expect((await t.http.patch(`/management/v1/projects/${projectId}`, { thread_retention_days: 1 })).status).toBe(401);
      const gone = expectStatus(await t.http.post('/management/v1/projects', { name: 'Gone' }, org.headers), 201, 'create').body;
      expectStatus(await t.http.delete(`/management/v1/projects/${gone.id}`, org.headers), 204, 'delete');
      expect((await t.http.patch(`/management/v1/projects/${gone.id}`, { thread_retention_days: 1 }, org.headers)).status).toBe(404);
      const project = (await t.http.get(`/management/v1/projects/${projectId}`, org.headers)).body;
      expect(project.thread_retention_days).toBeNull();
      expect(await audits(org.id, 'project.update')).toEqual([]);
      expect(await audits(other.id, 'project.update')).toEqual([]);
    });
  });
});
