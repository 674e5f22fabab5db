/**
 * Seeding helpers shared by scenarios. The real HTTP API is used wherever the route exists; otherwise rows are
 * inserted with SQL exactly as `test/factories/factory.ts` does, with the service's own id and hashing functions.
 */
import { newId } from '../../src/common/ids/new-id.js';
import { generateSecret, hashSecret, secretPrefix } from '../../src/modules/auth/secrets.js';
import type { Availability, BenchContext, HttpMethod } from '../scenario.js';

/** Available when the OpenAPI document has every one of these operations ("POST /messaging/v1/messages"). */
export async function requireRoutes(ctx: BenchContext, operations: string[]): Promise<Availability> {
  const missing: string[] = [];
  for (const operation of operations) {
    const [method, path] = operation.split(' ') as [HttpMethod, string];
    if (!(await ctx.hasRoute(method, path))) missing.push(operation);
  }
  return missing.length === 0 ? true : { reason: `not available in this build: missing ${missing.join(', ')}` };
}

/** The operations needed to give an agent a live version through the versions API. */
export const LIVE_AGENT_ROUTES = [
  'POST /management/v1/projects/{projectId}/agents',
  'POST /management/v1/agents/{agentId}/versions',
  'POST /management/v1/agents/{agentId}/versions/{versionId}/publish',
];

export async function createProject(ctx: BenchContext, name = `bench-${newId().slice(-6)}`): Promise<string> {
  const { body } = await ctx.request<{ id: string }>('POST', '/management/v1/projects', { headers: ctx.org.headers, body: { name } });
  return body.id;
}

/** An agent row inserted with SQL (no live version): enough for token exchange. */
export async function insertAgent(ctx: BenchContext, projectId: string, runtime: 'v1' | 'v2' = 'v1'): Promise<string> {
  const id = newId();
  await ctx.db.query(`INSERT INTO agents (id, organization_id, project_id, name, description, runtime) VALUES ($1, $2, $3, $4, NULL, $5)`, [
    id,
    ctx.org.organizationId,
    projectId,
    `bench-agent-${id.slice(-6)}`,
    runtime,
  ]);
  return id;
}

/** A publishable key row inserted with SQL, hashed as the service hashes it (as test/factories/factory.ts does). */
export async function insertPublishableKey(ctx: BenchContext, agentId: string): Promise<string> {
  const key = generateSecret('pk');
  await ctx.db.query(
    `INSERT INTO publishable_keys (id, organization_id, agent_id, key_hash, key_prefix, allowed_origins, allowed_ip_ranges)
     VALUES ($1, $2, $3, $4, $5, '{}', '{}')`,
    [newId(), ctx.org.organizationId, agentId, hashSecret(key), secretPrefix(key)],
  );
  return key;
}

/** An agent API key row inserted with SQL, hashed as the service hashes it. */
export async function insertAgentApiKey(ctx: BenchContext, agentId: string): Promise<string> {
  const key = generateSecret('agk');
  await ctx.db.query(`INSERT INTO agent_api_keys (id, organization_id, agent_id, key_hash, key_prefix) VALUES ($1, $2, $3, $4, $5)`, [
    newId(),
    ctx.org.organizationId,
    agentId,
    hashSecret(key),
    secretPrefix(key),
  ]);
  return key;
}

/** Creates an agent through the API and publishes a version made from a template, so it has a live revision. */
export async function createLiveAgent(
  ctx: BenchContext,
  options: { runtime: 'v1' | 'v2'; template: string; projectId?: string },
): Promise<{ projectId: string; agentId: string }> {
  const projectId = options.projectId ?? (await createProject(ctx));
  const agent = await ctx.request<{ id: string }>('POST', `/management/v1/projects/${projectId}/agents`, {
    headers: ctx.org.headers,
    body: { name: `bench-${options.template}-${newId().slice(-6)}`, runtime: options.runtime },
  });
  const version = await ctx.request<{ id: string }>('POST', `/management/v1/agents/${agent.body.id}/versions`, {
    headers: ctx.org.headers,
    body: { source: 'template', template: options.template },
  });
  await ctx.request('POST', `/management/v1/agents/${agent.body.id}/versions/${version.body.id}/publish`, { headers: ctx.org.headers });
  return { projectId, agentId: agent.body.id };
}

/** A publishable key: through the key-management API when this build has it, else by SQL. */
export async function publishableKey(ctx: BenchContext, agentId: string): Promise<string> {
  if (await ctx.hasRoute('POST', '/management/v1/agents/{agentId}/publishable-keys')) {
    const { body } = await ctx.request<{ publishable_key: string }>('POST', `/management/v1/agents/${agentId}/publishable-keys`, {
      headers: ctx.org.headers,
      body: {},
    });
    return body.publishable_key;
  }
  return insertPublishableKey(ctx, agentId);
}

/** An agent API key (events webhook): through the API when this build has it, else by SQL. */
export async function agentApiKey(ctx: BenchContext, agentId: string): Promise<string> {
  if (await ctx.hasRoute('POST', '/management/v1/agents/{agentId}/api-keys')) {
    const { body } = await ctx.request<{ api_key: string }>('POST', `/management/v1/agents/${agentId}/api-keys`, {
      headers: ctx.org.headers,
      body: {},
    });
    return body.api_key;
  }
  return insertAgentApiKey(ctx, agentId);
}

/** Exchanges a publishable key for a messaging access token. */
export async function accessToken(ctx: BenchContext, key: string): Promise<string> {
  const { body } = await ctx.request<{ access_token: string }>('POST', '/management/v1/auth/token', {
    body: { grant_type: 'publishable_key', publishable_key: key },
  });
  return body.access_token;
}

/** A live agent of the given template and a Bearer header for its messaging surface. */
export async function messagingAgent(
  ctx: BenchContext,
  runtime: 'v1' | 'v2',
  template: string,
): Promise<{ agentId: string; projectId: string; headers: Record<string, string> }> {
  const { agentId, projectId } = await createLiveAgent(ctx, { runtime, template });
  const token = await accessToken(ctx, await publishableKey(ctx, agentId));
  return { agentId, projectId, headers: { authorization: `Bearer ${token}` } };
}

/** Runs `task` for 0..count-1 with at most `parallel` at a time. */
export async function inParallel(count: number, parallel: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
}

/** Product questions the shopping-assistant template can answer; varied so the engine does real work. */
export const SHOPPING_QUESTIONS = [
  'Do you have running shoes under 120 dollars?',
  'I am looking for a waterproof jacket',
  'Show me wireless headphones with noise cancelling',
  'Which backpacks do you have for hiking?',
  'I need a gift for a coffee lover',
  'Any red dresses in size M?',
  'What laptops are good for students?',
  'Do you sell yoga mats?',
];

/** Questions for the knowledge-assistant template. */
export const KNOWLEDGE_QUESTIONS = [
  'How do I reset my password?',
  'What is your refund policy?',
  'How long does shipping take?',
  'Can I change my order after it was placed?',
  'How do I contact support?',
];

export const pick = <T>(list: readonly T[], index: number): T => list[index % list.length] as T;
