import pg from 'pg';
import type { DataSource } from 'typeorm';
import { newId } from '../../src/common/ids/new-id.js';
import { loadConfig } from '../../src/config/app-config.js';
import { createDataSource, runMigrations } from '../../src/database/data-source.js';
import { ThreadHandoff1732243200000 } from '../../src/database/migrations/1732243200000-thread-handoff.js';
import { toThreadMessage } from '../../src/modules/threads/dto/thread-response.dto.js';
import type { MessageRow } from '../../src/modules/conversations/conversations.types.js';
import type { TestOrg } from '../factories/factory.js';
import { liveAgent, shopBundle, type LiveTestAgent } from '../support/agents.js';
import type { HttpResponse } from '../support/http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Migration ThreadItems1732242900000 on a populated database: a database at the previous migration is filled with
 * turns in the old shape (one `interactions` row holding the end-user message and the reply, written with the SQL the
 * store used before), every read the API offers on them is taken, the migration runs, and the same reads must answer
 * the same (the transcript as the old store derived it). The migrated threads then take new turns.
 */
const MIGRATION = 'ThreadItems1732242900000';
const DAY = 86_400_000;

// The store's write before the migration (ConversationsRepository.writeTurn at the previous migration), frozen here.
const OLD_COLUMNS = `id, organization_id, project_id, agent_id, thread_id, seq, source, user_id, user_message_id, user_text,
  image_url, agent_variables, reply_message_id, reply_text, reply, trace, runtime, runtime_build, version_id, revision_id,
  version_tag, input_tokens, output_tokens, cache_read_tokens, reasoning_tokens, created_at, event_id`;
const oldValues = (seq: string) => `$1, $2, $3, $4, $5, ${seq},
  $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14::json, $15::json, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $29`;
const OLD_NEW_THREAD = `WITH thread AS (
    INSERT INTO threads (id, organization_id, project_id, agent_id, user_id, external_id, title, runtime, version_tag,
                         tools, rules, params, interaction_count, last_interaction_at, created_at, updated_at)
    VALUES ($5, $2, $3, $4, $7, $30, $31, $16, $20, $26, $27, $28::jsonb, 1, $25, $25, $25))
  INSERT INTO interactions (${OLD_COLUMNS}) VALUES (${oldValues('1')})`;
const OLD_EXISTING_THREAD = `WITH thread AS (
    UPDATE threads SET version_tag = $20, runtime = $16, interaction_count = interaction_count + 1,
           tools = ARRAY(SELECT DISTINCT unnest(tools || $26::text[])), rules = ARRAY(SELECT DISTINCT unnest(rules || $27::text[])),
           params = params || $28::jsonb, last_interaction_at = $25, updated_at = $25
     WHERE id = $5)
  INSERT INTO interactions (${OLD_COLUMNS}) VALUES (${oldValues('(SELECT COALESCE(max(seq), 0) + 1 FROM interactions WHERE thread_id = $5)')})`;
// The transcript as the old store derived it from those rows (one page holding everything).
const OLD_TRANSCRIPT = `SELECT m.* FROM (SELECT * FROM interactions WHERE thread_id = $1) i
  CROSS JOIN LATERAL (VALUES
    (i.user_message_id, 'user', i.user_text, i.created_at, i.id, i.image_url, NULL::json, i.version_tag, i.input_tokens,
     i.output_tokens, i.seq * 2, i.user_text IS NOT NULL OR i.image_url IS NOT NULL),
    (i.reply_message_id, 'agent', i.reply_text, i.created_at, i.id, NULL, i.reply, i.version_tag, i.input_tokens,
     i.output_tokens, i.seq * 2 + 1, true)
  ) AS m(id, role, text, created_at, interaction_id, image_url, reply, version_tag, input_tokens, output_tokens, position, shown)
  WHERE m.shown ORDER BY m.position`;

interface OldTurn {
  at: Date;
  source: 'api' | 'rerun' | 'event';
  userText: string | null;
  imageUrl?: string;
  agentVariables?: Record<string, unknown>;
  replyText: string;
  cards?: unknown[];
  versionTag: string;
  tokens: [number, number, number, number];
  facets: { tools: string[]; rules: string[]; params: Record<string, unknown> };
  eventId?: string;
}

const card = (title: string, url: string) => ({
  rendered_jsx: `<Card title="${title}" />`,
  is_recommended: true,
  index: 0,
  json_data: { entity: { title, url }, sub_entities: [] },
  capability: 'catalog',
  instance: 'rec-1',
  title,
});

describe('migration ThreadItems1732242900000 on a populated database', () => {
  const databaseName = `agent_${process.env.TEST_RUN_ID}_w${process.env.JEST_WORKER_ID ?? '1'}_items_test`;
  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL!;
  const url = Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString();
  let admin: pg.Client;
  let migrations: DataSource;
  let t: TestApp;
  let org: TestOrg;
  let shop: LiveTestAgent;
  let owner: { organizationId: string; projectId: string; agentId: string; versionId: string; revisionId: string };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${databaseName}" WITH TEMPLATE "agent_${process.env.TEST_RUN_ID}_tpl_test"`);
    migrations = await createDataSource(loadConfig({ DATABASE_URL: url })).initialize();
    // Back to the previous migration (and any later ones with it).
    while ((await migrations.query(`SELECT 1 FROM schema_migrations WHERE name = $1`, [MIGRATION])).length > 0) {
      await migrations.undoLastMigration({ transaction: 'each' });
    }
    // Today's code reads the thread-control columns of a later migration (thread handoff, independent of the items):
    // they are there for the reads before, and go again before the migrations run in order.
    await laterColumns('up');
    // Today's app runs against the old store: a column a later migration adds to a table the app's entities map comes
    // ahead (that migration adds it only if it is missing).
    await migrations.query(
      `ALTER TABLE agents ADD COLUMN IF NOT EXISTS publish_requires_passing_evaluation boolean NOT NULL DEFAULT false`,
    );
    t = await createTestApp({ DATABASE_URL: url });
    org = await t.factory.org();
    shop = await liveAgent(t, org, { bundle: shopBundle, runtime: 'v1' });
    const [agent] = await t.dataSource.query(
      `SELECT a.organization_id, a.project_id, r.version_id, r.id AS revision_id
         FROM agents a JOIN agent_revisions r ON r.version_id = $2 WHERE a.id = $1 ORDER BY r.revision_number DESC LIMIT 1`,
      [shop.agentId, shop.versionId],
    );
    owner = {
      organizationId: agent.organization_id,
      projectId: agent.project_id,
      agentId: shop.agentId,
      versionId: agent.version_id,
      revisionId: agent.revision_id,
    };
  });

  /** Applies or undoes the later thread-handoff migration's columns outside the migration table. */
  async function laterColumns(direction: 'up' | 'down'): Promise<void> {
    const runner = migrations.createQueryRunner();
    try {
      await new ThreadHandoff1732243200000()[direction](runner);
    } finally {
      await runner.release();
    }
  }

  afterAll(async () => {
    await t?.close();
    await migrations?.destroy();
    await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
    await admin.end();
  });

  /** Writes a thread's turns as the store did before the migration. */
  async function seedOldThread(thread: { id: string; externalId: string | null; title: string }, turns: OldTurn[]): Promise<string[]> {
    const ids: string[] = [];
    for (const [i, turn] of turns.entries()) {
      const id = newId(turn.at.getTime());
      ids.push(id);
      const rules = turn.facets.rules;
      const values = [
        id,
        owner.organizationId,
        owner.projectId,
        owner.agentId,
        thread.id,
        turn.source,
        'u1',
        newId(turn.at.getTime()),
        turn.userText,
        turn.imageUrl ?? null,
        JSON.stringify(turn.agentVariables ?? {}),
        newId(turn.at.getTime()),
        turn.replyText,
        JSON.stringify({ cards: turn.cards ?? [], followup_suggestions: ['Anything else?'], url: '', welcome_message: 'Hi!' }),
        JSON.stringify({ runtime: 'v1', response: { type: 'answer', message: turn.replyText }, decisions: [{ type: 'tool', n: i }] }),
        'v1',
        '1.0.0',
        owner.versionId,
        owner.revisionId,
        turn.versionTag,
        ...turn.tokens,
        turn.at,
        turn.facets.tools,
        rules,
        JSON.stringify(turn.facets.params),
        turn.eventId ?? null,
      ];
      if (i === 0) await t.dataSource.query(OLD_NEW_THREAD, [...values, thread.externalId, thread.title]);
      else await t.dataSource.query(OLD_EXISTING_THREAD, values);
    }
    return ids;
  }

  it('answers transcripts, traces, usage, thread lists and facets the same after the migration; the threads go on', async () => {
    const day = (days: number, hour: number) => new Date(Math.floor(Date.now() / DAY) * DAY - days * DAY + hour * 3_600_000);
    const threadA = newId(day(3, 10).getTime());
    const threadB = newId(day(1, 18).getTime());
    const shoes = { tools: ['catalog'], rules: ['budget', 'budget:passed'], params: { budget: 120 } };
    const turnsA = await seedOldThread({ id: threadA, externalId: null, title: 'I am looking for trail shoes' }, [
      {
        at: day(3, 10),
        source: 'api',
        userText: 'I am looking for trail shoes',
        replyText: 'Here are trail shoes',
        cards: [card('Trail Runner', 'https://shop.example/trail-runner')],
        versionTag: 'v1.0',
        tokens: [120, 40, 0, 0],
        facets: shoes,
      },
      {
        at: day(2, 12),
        source: 'api',
        userText: null,
        imageUrl: 'https://images.example/shoe.png',
        replyText: 'A fine shoe',
        versionTag: 'v1.0',
        tokens: [50, 20, 5, 0],
        facets: { tools: [], rules: [], params: { size: 42 } },
      },
      {
        at: day(2, 13),
        source: 'event',
        userText: null,
        agentVariables: { user_id: 'u1', cart: [1, 2] },
        replyText: 'Your cart holds two items',
        versionTag: 'v1.0',
        tokens: [30, 10, 0, 0],
        facets: { tools: ['order_status'], rules: [], params: {} },
        eventId: newId(),
      },
      {
        at: day(1, 9),
        source: 'rerun',
        userText: 'I am looking for trail shoes',
        replyText: 'Here are trail shoes again',
        versionTag: 'v1.1',
        tokens: [125, 45, 0, 7],
        facets: shoes,
      },
    ]);
    await seedOldThread({ id: threadB, externalId: 'ext-1', title: 'Sizes' }, [
      {
        at: day(1, 18),
        source: 'api',
        userText: 'Do you have size 44?',
        replyText: 'Size 44 is in stock',
        versionTag: 'v1.1',
        tokens: [10, 5, 0, 3],
        facets: { tools: ['sizes'], rules: ['age_check', 'age_check:fired', 'age_check:blocked'], params: { size: 44 } },
      },
    ]);

    const from = new Date(day(3, 11).getTime() + 1234).toISOString();
    const to = day(1, 12).toISOString();
    const reads = [
      '/management/v1/threads',
      '/management/v1/threads?page[size]=1',
      '/management/v1/threads?tool=catalog',
      '/management/v1/threads?tool=sizes&tool=order_status',
      '/management/v1/threads?rule=age_check:blocked',
      '/management/v1/threads?rule=budget:passed',
      '/management/v1/threads?param=budget>=100',
      '/management/v1/threads?param=size:44',
      '/management/v1/threads?external_id=ext-1',
      `/management/v1/threads?agent_id=${shop.agentId}&version_tag=v1.1`,
      `/management/v1/threads/${threadA}`,
      `/management/v1/threads/${threadB}`,
      `/management/v1/threads/${threadA}/trace`,
      `/management/v1/threads/${threadA}/trace?page[size]=2&sort_order=desc`,
      `/management/v1/threads/${threadB}/trace`,
      `/management/v1/interactions/${turnsA[2]}/trace`,
      `/management/v1/agents/${shop.agentId}/usage`,
      `/management/v1/agents/${shop.agentId}/usage?group_by=version_tag`,
      `/management/v1/agents/${shop.agentId}/usage?created_from=${from}&created_to=${to}`,
      `/management/v1/projects/${owner.projectId}/usage?created_from=${from}`,
      `/management/v1/projects/${owner.projectId}/usage?group_by=version_tag&created_to=${to}`,
    ];
    const read = async () => {
      const answers: Record<string, unknown> = {};
      for (const path of reads) {
        const res = await t.http.get(path, org.headers);
        expect([path, res.status]).toEqual([path, 200]);
        answers[path] = res.body;
      }
      return answers;
    };
    const oldTranscript = async (threadId: string) =>
      ((await t.dataSource.query(OLD_TRANSCRIPT, [threadId])) as MessageRow[]).map(toThreadMessage);

    const before = await read();
    // The reads see the seeded threads (so that "the same" is not "both empty").
    const ids = (path: string) => (before[path] as { results: Array<{ id: string }> }).results.map((r) => r.id);
    expect(ids('/management/v1/threads')).toEqual([threadB, threadA]);
    expect(ids('/management/v1/threads?rule=age_check:blocked')).toEqual([threadB]);
    expect(ids('/management/v1/threads?param=budget>=100')).toEqual([threadA]);
    const traces = before[`/management/v1/threads/${threadA}/trace`] as { results: Array<{ interaction_id: string }> };
    expect(traces.results.map((r) => r.interaction_id)).toEqual(turnsA);
    expect(before[`/management/v1/agents/${shop.agentId}/usage`]).toMatchObject({ interaction_count: 5, input_tokens: 335 });
    const transcripts = { [threadA]: await oldTranscript(threadA), [threadB]: await oldTranscript(threadB) };
    // The old store's transcript of thread A: the image-only message is shown, the turn without a message is not.
    expect(transcripts[threadA]!.map((m) => [m.role, m.text])).toEqual([
      ['user', 'I am looking for trail shoes'],
      ['agent', 'Here are trail shoes'],
      ['user', ''],
      ['agent', 'A fine shoe'],
      ['agent', 'Your cart holds two items'],
      ['user', 'I am looking for trail shoes'],
      ['agent', 'Here are trail shoes again'],
    ]);

    await laterColumns('down');
    expect(await runMigrations(migrations)).toContain(MIGRATION);

    expect(await read()).toEqual(before);
    for (const threadId of [threadA, threadB]) {
      const messages = `/management/v1/threads/${threadId}/messages`;
      const all = await t.http.get(`${messages}?page[size]=100`, org.headers);
      expect(all.status).toBe(200);
      expect(all.body.results).toEqual(transcripts[threadId]);
      // Small pages in both orders walk the same messages, without gaps or repeats.
      for (const order of ['asc', 'desc'] as const) {
        const walked: unknown[] = [];
        let link: string | null = `${messages}?page[size]=2&sort_order=${order}`;
        while (link) {
          const page: HttpResponse = await t.http.get(link, org.headers);
          expect(page.status).toBe(200);
          walked.push(...page.body.results);
          link = page.body.links.next;
        }
        expect(walked).toEqual(order === 'asc' ? transcripts[threadId] : [...transcripts[threadId]!].reverse());
      }
    }

    // A migrated thread takes new turns after its carried-over items; a rerun answers its last end-user message again.
    const sent = await t.http.post('/messaging/v1/messages', { text: 'show me jackets', user_id: 'u1', thread_id: threadA }, shop.headers);
    expect(sent.status).toBe(200);
    const rerun = await t.http.post(`/messaging/v1/threads/${threadA}/rerun`, {}, shop.headers);
    expect(rerun.status).toBe(200);
    const after = await t.http.get(`/management/v1/threads/${threadA}/messages?page[size]=100`, org.headers);
    expect(after.body.results.slice(0, transcripts[threadA]!.length)).toEqual(transcripts[threadA]);
    expect(
      after.body.results.slice(transcripts[threadA]!.length).map((m: { role: string; text: string; id: string }) => [m.role, m.text, m.id]),
    ).toEqual([
      ['user', 'show me jackets', expect.any(String)],
      ['agent', sent.body.message.text, sent.body.message.id],
      ['user', 'show me jackets', expect.any(String)],
      ['agent', rerun.body.message.text, rerun.body.message.id],
    ]);
    const thread = await t.http.get(`/management/v1/threads/${threadA}`, org.headers);
    expect(thread.body.interaction_count).toBe(6);
  });
});
