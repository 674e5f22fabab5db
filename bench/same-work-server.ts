/**
 * The same-work baselines: a bare Fastify + `pg` (+ ioredis) server that does the unavoidable work of the service's
 * hot routes and nothing else — no Nest, no ORM, no validation library, no metrics, no logging. Each route reads
 * the same schema, runs the same SQL shape and answers the same JSON, so the service's ratio to it measures what
 * the service spends beyond the work itself.
 *
 *   POST /messaging/v1/messages  turn-baseline: Bearer token (HS256, verified once per token, as the service
 *                                caches it), the live revision (read once per agent), the thread with its last turn
 *                                and items (one SELECT), the builtin engine (the service's own RuntimeService), the
 *                                interaction, its items and the thread row in one statement (one commit), the send
 *                                route's JSON. Both statements are named (prepared once per connection), as the
 *                                service's are.
 *   POST /messaging/v1/events    accept-baseline: agent API key (hash looked up once per key); the event row through
 *                                the service's own group commit (`GroupInsert` over `EventsRepository.insertMany`: the
 *                                same named statement, the same lanes) committed before the answer; the service's
 *                                wake-up policy (`EventsWakeup`: one PUBLISH per event-loop tick, not awaited); 202.
 *   GET  /management/v1/threads  list-baseline: organization API key (looked up once), the thread list's SELECT
 *                                for the filters the scenarios send, the same page envelope.
 *
 * With `RATE_LIMIT_MAX` > 0 (the runner's `--default-config`), every route first counts the credential's rate-limit
 * window with the service's own `FixedWindowLimiter` (one pipelined INCR + EXPIRE), as the service then does.
 *
 * Usage: `node dist/bench/same-work-server.js <port>` with DATABASE_URL, REDIS_URL, REDIS_KEY_PREFIX, JWT_SECRET
 * (and optionally RATE_LIMIT_MAX).
 * The baseline's event ids start with `ACCEPT_BASELINE_ID_PREFIX` (otherwise `newId()`'s, so as time-ordered), and its
 * wake-ups go to a channel of its own: `events-ingest` keeps the service's processing paused while the baseline
 * runs, and the runner deletes these rows after each run.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyReply } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { newId } from '../src/common/ids/new-id.js';
import type { AppConfig } from '../src/config/app-config.js';
import type { Bundle } from '../src/modules/bundles/bundle.types.js';
import { FixedWindowLimiter } from '../src/modules/auth/rate-limit/fixed-window.limiter.js';
import { hashSecret } from '../src/modules/auth/secrets.js';
import type { MetricsService } from '../src/modules/metrics/metrics.service.js';
import type { PreparedAgent } from '../src/modules/runtime/prepared-agent.js';
import { RuntimeService } from '../src/modules/runtime/runtime.service.js';
import type { TurnResult } from '../src/modules/runtime/runtime.types.js';
import type { RedisService } from '../src/common/redis/redis.service.js';
import type { SqlService } from '../src/database/sql.service.js';
import { EventsWakeup } from '../src/modules/events/events-wakeup.js';
import { EventsRepository } from '../src/modules/events/events.repository.js';
import { isStoreUnavailable } from '../src/modules/events/failure-kinds.js';
import { GroupInsert } from '../src/modules/events/group-insert.js';
import { ACCEPT_BASELINE_CHANNEL, ACCEPT_BASELINE_ID_PREFIX, SAME_WORK_APPLICATION } from './lib/same-work.js';

/** Earlier turns read with the thread (the service's HISTORY_TURNS, src/modules/conversations/conversations.types.ts). */
const HISTORY_TURNS = 6;
const TITLE_LENGTH = 80;

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const port = Number(process.argv[2] ?? 0);
const jwtKey = Buffer.from(env('JWT_SECRET'));
// The service's pool size default (DATABASE_POOL_SIZE): the same number of connections doing the same work.
const POOL_SIZE = 20;
const db = new pg.Pool({
  connectionString: env('DATABASE_URL'),
  max: POOL_SIZE,
  idleTimeoutMillis: 0,
  application_name: SAME_WORK_APPLICATION,
});
const redis = new Redis(env('REDIS_URL'));

// The service's accept path without Nest: its repository's statement (through a pool, as SqlService outside a
// transaction), its group commit with the lanes EventsIngestService gives it, its wake-up (on a channel of our own).
const sql = {
  rows: async (text: string, values: unknown[] = [], name?: string) =>
    (await db.query(name ? { name, text, values } : { text, values })).rows,
};
const eventStore = new EventsRepository(sql as unknown as SqlService);
const eventInserts = new GroupInsert((rows) => eventStore.insertMany(rows), {
  lanes: Math.max(1, Math.floor(POOL_SIZE / 4)),
  failsEveryRow: isStoreUnavailable,
});
const prefix = env('REDIS_KEY_PREFIX');
const redisService = (channelKey?: string) =>
  ({
    key: (...parts: string[]) => channelKey ?? `${prefix}:${parts.join(':')}`,
    get ready() {
      return redis.status === 'ready';
    },
    client: redis,
    failedOpen: () => undefined,
  }) as unknown as RedisService;
const wakeup = new EventsWakeup(redisService(`${prefix}:${ACCEPT_BASELINE_CHANNEL}`));
const rateLimitMax = Number(process.env.RATE_LIMIT_MAX ?? 0);
const limiter = new FixedWindowLimiter(
  redisService(),
  { rateLimit: { max: rateLimitMax, windowSeconds: 60 } } as unknown as AppConfig,
  { rateLimitRejected: () => undefined } as unknown as MetricsService,
);
/** The credential's rate-limit window, as the service's guard counts it (nothing when RATE_LIMIT_MAX is 0). */
const limited = async (subject: string): Promise<boolean> => rateLimitMax > 0 && (await limiter.hit(subject)) !== undefined;
const runtime = new RuntimeService({ providers: { openai: {}, anthropic: {}, timeoutMs: 30_000 } } as unknown as AppConfig);

interface Live {
  agentId: string;
  organizationId: string;
  projectId: string;
  versionId: string;
  revisionId: string;
  versionTag: string;
  prepared: PreparedAgent;
}

/** Memoises a lookup per key (concurrent misses share one query), like the service's credential and agent caches. */
function memo<T>(load: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const entries = new Map<string, Promise<T>>();
  return (key) => {
    let entry = entries.get(key);
    if (!entry) {
      entry = load(key);
      entries.set(key, entry);
      entry.catch(() => entries.delete(key));
    }
    return entry;
  };
}

const b64 = (part: string) => Buffer.from(part, 'base64url');

/** The claims of an HS256 token signed with JWT_SECRET (signature and expiry only: the token is the service's own). */
const tokenClaims = memo(async (token: string) => {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return null;
  const expected = createHmac('sha256', jwtKey).update(`${header}.${payload}`).digest();
  const given = b64(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const claims = JSON.parse(b64(payload).toString('utf8')) as { org: string; agt: string; exp: number };
  return claims.exp > Date.now() / 1000 ? claims : null;
});

const liveAgent = memo(async (key: string): Promise<Live | null> => {
  const [organizationId, agentId] = key.split(':') as [string, string];
  const { rows } = await db.query<{
    project_id: string;
    runtime: 'v1' | 'v2';
    live_version_id: string;
    live_revision_id: string;
    live_version_tag: string;
    digest: string;
    bundle: Bundle;
  }>(
    `SELECT a.project_id, a.runtime, a.live_version_id, a.live_revision_id, a.live_version_tag, r.digest, r.bundle
       FROM agents a JOIN agent_revisions r ON r.id = a.live_revision_id
      WHERE a.id = $1 AND a.organization_id = $2 AND a.deleted_at IS NULL`,
    [agentId, organizationId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    agentId,
    organizationId,
    projectId: row.project_id,
    versionId: row.live_version_id,
    revisionId: row.live_revision_id,
    versionTag: row.live_version_tag,
    prepared: runtime.prepare({ digest: row.digest, runtime: row.runtime, bundle: row.bundle }),
  };
});

const keyOwner = (table: 'agent_api_keys' | 'organization_api_keys') =>
  memo(async (secret: string) => {
    const agentColumn = table === 'agent_api_keys' ? 'agent_id' : 'NULL::text AS agent_id';
    const { rows } = await db.query<{ organization_id: string; agent_id: string | null }>(
      `SELECT organization_id, ${agentColumn} FROM ${table} WHERE key_hash = $1 AND revoked_at IS NULL`,
      [hashSecret(secret)],
    );
    return rows[0] ?? null;
  });
const agentKey = keyOwner('agent_api_keys');
const organizationKey = keyOwner('organization_api_keys');

const fail = (reply: FastifyReply, status: number, code: string) => reply.code(status).send({ error: { code, message: code } });

// The service's turn read (ConversationsRepository.threadState, src/modules/conversations): the thread, its newest turn
// and its newest items.
const FIND_THREAD = `SELECT t.id, t.user_id,
        (SELECT json_build_object('id', i.id, 'version_id', i.version_id) FROM interactions i
          WHERE i.thread_id = t.id ORDER BY i.seq DESC LIMIT 1) AS latest,
        COALESCE((SELECT json_agg(h ORDER BY h.seq) FROM (
           SELECT seq, kind, text, turn_id FROM thread_items
            WHERE thread_id = t.id ORDER BY seq DESC LIMIT ${HISTORY_TURNS * 2}) h), '[]'::json) AS items
   FROM threads t WHERE t.id = $1 AND t.organization_id = $2 AND t.agent_id = $3`;

const INTERACTION_COLUMNS = `id, organization_id, project_id, agent_id, thread_id, seq, source, user_id, agent_variables, trace, runtime,
  runtime_build, version_id, revision_id, version_tag, input_tokens, output_tokens, cache_read_tokens, reasoning_tokens, created_at`;
const values = (seq: string) => `$1, $2, $3, $4, $5, ${seq}, 'api', $6, '{}'::jsonb, $7::json, $8, $9, $10, $11, $12, $13, $14, $15,
  $16, $17`;
// The turn's items (end-user message, reply), numbered after the thread's last item as the thread CTE returned it;
// five parameters per item from $22 on (the service's ConversationsRepository.writeTurn).
const items = (base: string, count: number) => {
  const rows = Array.from({ length: count }, (_, i) => {
    const p = 22 + i * 5;
    return `(${i + 1}, $${p}::char(24), $${p + 1}::varchar(16), $${p + 2}::varchar(255), $${p + 3}::text, $${p + 4}::json)`;
  });
  return `INSERT INTO thread_items (id, organization_id, thread_id, seq, turn_id, kind, author_id, text, image_url, content, created_at)
    SELECT x.id, $2, $5, ${base} + x.ord, $1, x.kind, x.author_id, x.text, NULL, x.content, $17
      FROM thread, (VALUES ${rows.join(', ')}) AS x(ord, id, kind, author_id, text, content)`;
};

// The write: interaction, items and thread row (created, or counters and facets merged) in one statement, one commit.
const writeExisting = (count: number) => `WITH thread AS (
    UPDATE threads SET version_tag = $12, runtime = $8, interaction_count = interaction_count + 1,
           tools = ARRAY(SELECT DISTINCT unnest(tools || $18::text[])), rules = ARRAY(SELECT DISTINCT unnest(rules || $19::text[])),
           params = params || $20::jsonb, last_interaction_at = $17, updated_at = $17, last_item_seq = last_item_seq + $21
     WHERE id = $5
     RETURNING last_item_seq - $21 AS base),
  items AS (${items('thread.base', count)})
  INSERT INTO interactions (${INTERACTION_COLUMNS})
  VALUES (${values('(SELECT COALESCE(max(seq), 0) + 1 FROM interactions WHERE thread_id = $5)')})`;
const writeNew = (count: number) => `WITH thread AS (
    INSERT INTO threads (id, organization_id, project_id, agent_id, user_id, title, runtime, version_tag, tools, rules, params,
                         interaction_count, last_interaction_at, last_item_seq, created_at, updated_at)
    VALUES ($5, $2, $3, $4, $6, $${22 + count * 5}, $8, $12, $18, $19, $20::jsonb, 1, $17, $21, $17, $17)
    RETURNING id),
  items AS (${items('0', count)})
  INSERT INTO interactions (${INTERACTION_COLUMNS}) VALUES (${values('1')})`;

function facetRules(result: TurnResult): string[] {
  return result.facets.rules.flatMap((r) =>
    r.outcome === 'passed'
      ? [r.code, `${r.code}:passed`]
      : [r.code, `${r.code}:fired`, ...(r.outcome === 'blocked' ? [`${r.code}:blocked`] : [])],
  );
}

async function writeTurn(name: string, text: string, values: unknown[]): Promise<void> {
  // Two turns racing on one thread collide on (thread_id, seq): the loser takes the next number, as the service does.
  for (let attempt = 0; ; attempt += 1) {
    try {
      await db.query({ name, text, values });
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '23505' || attempt >= 5) throw error;
    }
  }
}

const app = Fastify({ logger: false });

app.get('/health', async () => ({ status: 'ok' }));

app.post('/messaging/v1/messages', async (request, reply) => {
  const auth = request.headers.authorization;
  const claims = auth?.startsWith('Bearer ') ? await tokenClaims(auth.slice(7)) : null;
  if (!claims) return fail(reply, 401, 'unauthorized');
  if (await limited(`pk:${claims.agt}`)) return fail(reply, 429, 'rate_limited');
  const agent = await liveAgent(`${claims.org}:${claims.agt}`);
  if (!agent) return fail(reply, 404, 'no_active_version');
  const body = request.body as { text?: string; user_id: string; thread_id?: string };
  let threadId = body.thread_id?.toLowerCase();
  const history: Array<{ role: 'user' | 'agent'; text: string }> = [];
  if (threadId) {
    const { rows } = await db.query<{ items: Array<{ kind: string; text: string | null; turn_id: string | null }> }>({
      name: 'sw_find_thread',
      text: FIND_THREAD,
      values: [threadId, agent.organizationId, agent.agentId],
    });
    if (!rows[0]) return fail(reply, 404, 'not_found');
    const turns = new Set<string>();
    for (const item of [...rows[0].items].reverse()) {
      if (item.turn_id && !turns.has(item.turn_id) && turns.size < HISTORY_TURNS) turns.add(item.turn_id);
    }
    for (const item of rows[0].items) {
      if (!item.turn_id || !turns.has(item.turn_id)) continue;
      if (item.kind === 'end_user' && item.text) history.push({ role: 'user', text: item.text });
      else if (item.kind === 'agent') history.push({ role: 'agent', text: item.text ?? '' });
    }
  }
  const engine = runtime.begin(agent.prepared);
  const result = await engine.run({ text: body.text, agentVariables: {}, history, surface: 'json' });
  const isNew = !threadId;
  threadId ??= newId();
  const interactionId = newId();
  const replyId = newId();
  const createdAt = new Date();
  const cardUrl = result.cards[0]?.json_data.entity.url;
  const url = typeof cardUrl === 'string' ? cardUrl : result.trace.runtime === 'v2' ? (result.trace.citations_used[0]?.url ?? '') : '';
  const stored = { cards: result.cards, followup_suggestions: result.followupSuggestions, url, welcome_message: engine.welcomeMessage };
  const turnItems: unknown[][] = [
    ...(body.text === undefined ? [] : [[newId(), 'end_user', body.user_id, body.text, null]]),
    [replyId, 'agent', null, result.text, JSON.stringify(stored)],
  ];
  const text = body.text?.replace(/\s+/g, ' ').trim() ?? '';
  const params: unknown[] = [
    interactionId,
    agent.organizationId,
    agent.projectId,
    agent.agentId,
    threadId,
    body.user_id,
    JSON.stringify(result.trace),
    result.runtime,
    result.runtimeBuild,
    agent.versionId,
    agent.revisionId,
    agent.versionTag,
    result.usage.input_tokens,
    result.usage.output_tokens,
    result.usage.cache_read_tokens,
    result.usage.reasoning_tokens,
    createdAt,
    result.facets.tools,
    facetRules(result),
    JSON.stringify(result.facets.params),
    turnItems.length,
    ...turnItems.flat(),
    ...(isNew ? [text.length > TITLE_LENGTH ? `${text.slice(0, TITLE_LENGTH - 1)}…` : text || 'Conversation'] : []),
  ];
  const count = turnItems.length;
  await writeTurn(isNew ? `sw_write_new_${count}` : `sw_write_existing_${count}`, isNew ? writeNew(count) : writeExisting(count), params);
  return {
    thread_id: threadId,
    interaction_id: interactionId,
    message: {
      id: replyId,
      created_at: createdAt.toISOString(),
      text: result.text,
      sender: { id: agent.agentId, type: 'agent' },
      receiver: { id: body.user_id, type: 'user' },
      cards: result.cards,
      welcome_message: engine.welcomeMessage,
      followup_suggestions: result.followupSuggestions,
      url,
      input_tokens: result.usage.input_tokens,
      output_tokens: result.usage.output_tokens,
    },
  };
});

app.post('/messaging/v1/events', async (request, reply) => {
  const secret = request.headers['x-agent-api-key'];
  const owner = typeof secret === 'string' ? await agentKey(secret) : null;
  if (!owner?.agent_id) return fail(reply, 401, 'unauthorized');
  if (await limited(`ak:${owner.agent_id}`)) return fail(reply, 429, 'rate_limited');
  const body = request.body as { text?: string; thread_id?: string; agent_variables?: Record<string, unknown> };
  const id = ACCEPT_BASELINE_ID_PREFIX + newId().slice(ACCEPT_BASELINE_ID_PREFIX.length);
  await eventInserts.insert({
    id,
    organizationId: owner.organization_id,
    agentId: owner.agent_id,
    externalThreadId: body.thread_id ?? null,
    text: body.text ?? null,
    agentVariablesJson: JSON.stringify(body.agent_variables ?? {}),
    traceContextJson: null,
  });
  wakeup.nudge();
  return reply.code(202).send({ event_id: id });
});

interface ListQuery {
  'page[size]'?: string;
  user_id?: string;
  agent_id?: string;
  tool?: string;
  rule?: string;
  param?: string;
  created?: string;
}

/**
 * The thread list's statement for the filters the benchmark sends (one value per filter): the conditions
 * `threadFilterConditions` (src/modules/conversations/thread-filters.ts) writes for them, the keyset order and limit `paginateSql` adds.
 */
app.get('/management/v1/threads', async (request, reply) => {
  const secret = request.headers['x-organization-api-key'];
  const owner = typeof secret === 'string' ? await organizationKey(secret) : null;
  if (!owner) return fail(reply, 401, 'unauthorized');
  if (await limited(`ok:${owner.organization_id}`)) return fail(reply, 429, 'rate_limited');
  const query = request.query as ListQuery;
  const size = Number(query['page[size]'] ?? 50);
  const params: unknown[] = [owner.organization_id, 'v1'];
  const add = (value: unknown) => `$${params.push(value)}`;
  const where = ['t.organization_id = $1', 't.runtime = $2'];
  if (query.user_id !== undefined) where.push(`t.user_id = ${add(query.user_id)}`);
  if (query.agent_id !== undefined) where.push(`t.agent_id = ${add(query.agent_id.toLowerCase())}`);
  if (query.created !== undefined) where.push(`t.created_at >= ${add(query.created)}::timestamptz`);
  if (query.tool !== undefined) where.push(`t.tools @> ARRAY[${add(query.tool)}]::text[]`);
  if (query.rule !== undefined) where.push(`t.rules @> ARRAY[${add(query.rule)}]::text[]`);
  if (query.param !== undefined) {
    const [key, value] = query.param.split(':') as [string, string];
    where.push(`t.params @> ${add(JSON.stringify({ [key]: value }))}::jsonb`);
  }
  const { rows } = await db.query<{
    id: string;
    title: string;
    created_at: Date;
    version_tag: string;
    agent_id: string;
    user_id: string;
    external_id: string | null;
  }>(
    `SELECT t.id, t.title, t.created_at, t.version_tag, t.agent_id, t.user_id, t.external_id FROM threads t WHERE ${where.join(' AND ')}
      ORDER BY t.created_at DESC, t.id DESC LIMIT ${size + 1}`,
    params,
  );
  const hasMore = rows.length > size;
  if (hasMore) rows.pop();
  const cursor = (row: (typeof rows)[number] | undefined) =>
    row ? Buffer.from(JSON.stringify(['created_at', 'desc', row.created_at.toISOString(), row.id])).toString('base64url') : null;
  const after = cursor(rows[rows.length - 1]);
  const search = new URLSearchParams(request.url.split('?')[1] ?? '');
  if (after) search.set('page[after]', after);
  return {
    results: rows.map((t) => ({
      id: t.id,
      title: t.title,
      created_at: t.created_at.toISOString(),
      version_tag: t.version_tag,
      agent_id: t.agent_id,
      user_id: t.user_id,
      external_id: t.external_id,
    })),
    meta: { has_more: hasMore, after_cursor: after, before_cursor: cursor(rows[0]) },
    links: { next: hasMore && after ? `/management/v1/threads?${search.toString()}` : null, prev: null },
  };
});

const shutdown = () =>
  void app
    .close()
    .then(() => Promise.all([db.end(), redis.quit()]))
    .finally(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`listening on ${port}\n`);
