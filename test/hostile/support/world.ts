import { randomBytes } from 'node:crypto';
import type { Bundle } from '../../../src/modules/bundles/bundle.types.js';
import type { TestOrg } from '../../factories/factory.js';
import { expectStatus, shopBundle } from '../../support/agents.js';
import { startFakeTwilio, type FakeTwilio } from '../../support/fake-twilio-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

export const PUBLIC_BASE = 'https://agents.example.com';
export const DEFAULT_SMS = '+15550001111';
export const END_USER_PHONE = '+15557654321';

/**
 * The app the hostile suites run against: workers off (nothing happens in the background, so row counts only move
 * with the request being judged), no effective rate limit, channels configured against a fake provider.
 */
export async function startHostileApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; twilio: FakeTwilio; close(): Promise<void> }> {
  const twilio = await startFakeTwilio();
  const t = await createTestApp({
    WORKERS: 'off',
    RATE_LIMIT_MAX: '1000000',
    EVENTS_MAX_BACKLOG: '1000000',
    CHANNEL_PROVIDER_BASE_URL: twilio.url,
    CHANNEL_PROVIDER_ACCOUNT_SID: twilio.accountSid,
    CHANNEL_PROVIDER_AUTH_TOKEN: twilio.authToken,
    CHANNEL_PUBLIC_BASE_URL: PUBLIC_BASE,
    CHANNEL_DEFAULT_SENDER_SMS: DEFAULT_SMS,
    ...env,
  });
  return {
    t,
    twilio,
    close: async () => {
      await t.close();
      await twilio.close();
    },
  };
}

/** Every resource one organization owns, created through the API, with the credentials of each surface. */
export interface Tenant {
  org: TestOrg;
  /** A unique string written into names, titles and texts of this tenant: it must never show up in another tenant's answers. */
  canary: string;
  projectId: string;
  agentId: string;
  publishedVersionId: string;
  /** A published version that is not live (the second arm of a traffic split). */
  candidateVersionId: string;
  draftVersionId: string;
  publishableKeyId: string;
  publishableKey: string;
  agentApiKeyId: string;
  agentApiKey: string;
  token: string;
  threadId: string;
  channelThreadId: string;
  interactionId: string;
  eventId: string;
  senderId: string;
  templateId: string;
  auditEventId: string;
  webhookId: string;
  webhookDeliveryId: string;
  /** An agent secret of the tenant's agent, and its value (which no answer may ever show, to anyone). */
  secretName: string;
  secretValue: string;
  bearer: Record<string, string>;
  agentKeyHeaders: Record<string, string>;
}

const randomPhone = () => `+1555${String(1_000_000 + (randomBytes(4).readUInt32BE() % 9_000_000))}`;

export async function seedTenant(t: TestApp, label: string): Promise<Tenant> {
  const canary = `canary-${label}-${randomBytes(4).toString('hex')}`;
  const org = await t.factory.org(`${canary} organization`);
  const ok = <T extends { status: number; text: string }>(res: T, status: number, step: string) =>
    expectStatus(res, status, `${label}: ${step}`);
  const h = org.headers;
  const project = ok(await t.http.post('/management/v1/projects', { name: `${canary} project` }, h), 201, 'project').body;
  const agent = ok(
    await t.http.post(
      `/management/v1/projects/${project.id}/agents`,
      { name: `${canary} agent`, description: `${canary} description`, runtime: 'v1' },
      h,
    ),
    201,
    'agent',
  ).body;
  const published = ok(
    await t.http.post(`/management/v1/agents/${agent.id}/versions`, { source: 'empty', label: `${canary} label` }, h),
    201,
    'version',
  ).body;
  const bundle: Bundle = { ...shopBundle, name: `${canary} shop`, welcome_message: `${canary} welcome` };
  ok(
    await t.http.post(`/management/v1/agents/${agent.id}/versions/${published.id}/push`, { bundle, message: `${canary} push` }, h),
    200,
    'push',
  );
  ok(await t.http.post(`/management/v1/agents/${agent.id}/versions/${published.id}/publish`, undefined, h), 200, 'publish');
  const draft = ok(
    await t.http.post(
      `/management/v1/agents/${agent.id}/versions`,
      { source: 'clone', from_version_id: published.id, notes: `${canary} notes` },
      h,
    ),
    201,
    'draft',
  ).body;
  const candidate = ok(
    await t.http.post(`/management/v1/agents/${agent.id}/versions`, { source: 'clone', from_version_id: published.id }, h),
    201,
    'candidate',
  ).body;
  ok(await t.http.post(`/management/v1/agents/${agent.id}/versions/${candidate.id}/publish`, undefined, h), 200, 'publish candidate');
  ok(await t.http.post(`/management/v1/agents/${agent.id}/versions/${published.id}/publish`, undefined, h), 200, 'republish');
  const pk = ok(await t.http.post(`/management/v1/agents/${agent.id}/publishable-keys`, {}, h), 201, 'publishable key').body;
  const token = ok(
    await t.http.post('/management/v1/auth/token', { grant_type: 'publishable_key', publishable_key: pk.publishable_key }),
    200,
    'token',
  ).body.access_token as string;
  const ak = ok(await t.http.post(`/management/v1/agents/${agent.id}/api-keys`, undefined, h), 201, 'agent api key').body;
  const bearer = { authorization: `Bearer ${token}` };
  const agentKeyHeaders = { 'x-agent-api-key': ak.api_key };
  // A receiver that refuses connections: its deliveries stay in the log, retrying.
  const webhook = ok(
    await t.http.post(
      `/management/v1/projects/${project.id}/webhooks`,
      { url: 'http://127.0.0.1:9/walk', events: ['turn.completed'], description: `${canary} webhook` },
      h,
    ),
    201,
    'webhook',
  ).body;
  const sent = ok(
    await t.http.post('/messaging/v1/messages', { text: `${canary} I am looking for trail shoes`, user_id: `${canary}-user` }, bearer),
    200,
    'send',
  ).body;
  ok(await t.http.patch(`/management/v1/threads/${sent.thread_id}`, { title: `${canary} thread` }, h), 200, 'rename thread');
  const event = ok(
    await t.http.post('/messaging/v1/events', { text: `${canary} order shipped`, thread_id: `${canary}-conversation` }, agentKeyHeaders),
    202,
    'event',
  ).body;
  const sender = ok(
    await t.http.post('/management/v1/senders', { channel: 'sms', phone_number: randomPhone(), display_name: `${canary} sender` }, h),
    201,
    'sender',
  ).body;
  const channelThread = ok(
    await t.http.post(
      '/messaging/v1/channels/sms/threads',
      { user_id: `${canary}-sms-user`, phone_number: END_USER_PHONE, sender_id: sender.id },
      bearer,
    ),
    201,
    'channel thread',
  ).body;
  const secretValue = `${canary}-secret-value`;
  ok(
    await t.http.request('PUT', `/management/v1/agents/${agent.id}/secrets/WALK_TOKEN`, { body: { value: secretValue }, headers: h }),
    204,
    'agent secret',
  );
  const templates = ok(await t.http.get('/management/v1/templates', h), 200, 'templates').body;
  const webhookDeliveries = ok(
    await t.http.get(`/management/v1/projects/${project.id}/webhooks/${webhook.id}/deliveries`, h),
    200,
    'webhook deliveries',
  ).body;
  const templateId = templates.results[0].id as string;
  const auditEventId = ok(await t.http.get('/management/v1/audit-events?page[size]=1', h), 200, 'audit events').body.results[0]
    .id as string;
  return {
    org,
    canary,
    projectId: project.id,
    agentId: agent.id,
    publishedVersionId: published.id,
    candidateVersionId: candidate.id,
    draftVersionId: draft.id,
    publishableKeyId: pk.id,
    publishableKey: pk.publishable_key,
    agentApiKeyId: ak.id,
    agentApiKey: ak.api_key,
    token,
    threadId: sent.thread_id,
    channelThreadId: channelThread.thread_id,
    interactionId: sent.interaction_id,
    eventId: event.event_id,
    senderId: sender.id,
    templateId,
    auditEventId,
    webhookId: webhook.id,
    webhookDeliveryId: webhookDeliveries.results[0].id,
    secretName: 'WALK_TOKEN',
    secretValue,
    bearer,
    agentKeyHeaders,
  };
}

/** Operations whose success consumes the resource named by their last path id: each such request gets a fresh one. */
export function consumes(method: string, path: string): boolean {
  return method === 'DELETE' || /\/(publish|archive)$/.test(path);
}

/**
 * The path ids of a valid request for `method path`, from the tenant's resources; resources that the request would
 * consume (deleted, published, archived) are created fresh for it.
 */
export async function pathIds(t: TestApp, tenant: Tenant, method: string, path: string): Promise<Record<string, string>> {
  const h = tenant.org.headers;
  const ids: Record<string, string> = {
    projectId: tenant.projectId,
    agentId: tenant.agentId,
    templateId: tenant.templateId,
    versionId: tenant.publishedVersionId,
    threadId: path.includes('/channels/') ? tenant.channelThreadId : tenant.threadId,
    interactionId: tenant.interactionId,
    eventId: tenant.eventId,
    senderId: tenant.senderId,
    auditEventId: tenant.auditEventId,
    channel: 'sms',
    keyId: path.includes('publishable-keys') ? tenant.publishableKeyId : tenant.agentApiKeyId,
    webhookId: tenant.webhookId,
    deliveryId: tenant.webhookDeliveryId,
    name: tenant.secretName,
  };
  if (/\/versions\/\{versionId\}(\/push|\/knowledge(\/\{documentId\})?)?$/.test(path) && method !== 'GET') {
    ids.versionId = tenant.draftVersionId;
  }
  if (method === 'PUT' && path.endsWith('/traffic')) {
    // The split's live arm is the tenant's published version: make it live again (the walk may have published others).
    expectStatus(
      await t.http.post(`/management/v1/agents/${tenant.agentId}/versions/${tenant.publishedVersionId}/publish`, undefined, h),
      200,
      'live again',
    );
  }
  if (!consumes(method, path)) return ids;
  if (/\/(publish|archive)$/.test(path)) {
    ids.versionId = expectStatus(
      await t.http.post(`/management/v1/agents/${tenant.agentId}/versions`, { source: 'empty' }, h),
      201,
      'fresh draft',
    ).body.id;
  } else if (path.endsWith('/projects/{projectId}')) {
    ids.projectId = (await t.factory.project(tenant.org)).id;
  } else if (path.endsWith('/agents/{agentId}')) {
    ids.agentId = (await t.factory.agent(tenant.org, { project: { id: tenant.projectId } as never })).id;
  } else if (path.endsWith('/publishable-keys/{keyId}')) {
    ids.keyId = expectStatus(
      await t.http.post(`/management/v1/agents/${tenant.agentId}/publishable-keys`, {}, h),
      201,
      'fresh publishable key',
    ).body.id;
  } else if (path.endsWith('/api-keys/{keyId}')) {
    ids.keyId = expectStatus(
      await t.http.post(`/management/v1/agents/${tenant.agentId}/api-keys`, undefined, h),
      201,
      'fresh api key',
    ).body.id;
  } else if (path.endsWith('/knowledge/{documentId}')) {
    const form = new FormData();
    form.append(
      'files',
      new Blob(['# Doomed\n\nA document the walk removes.'], { type: 'text/markdown' }),
      `doomed-${randomPhone().slice(1)}.md`,
    );
    const res = await fetch(`${t.baseUrl}/management/v1/agents/${tenant.agentId}/versions/${ids.versionId}/knowledge`, {
      method: 'POST',
      headers: h,
      body: form,
    });
    if (res.status !== 200) throw new Error(`fresh knowledge document: expected 200, got ${res.status}: ${await res.text()}`);
    ids.documentId = ((await res.json()) as { documents: Array<{ id: string }> }).documents[0]!.id;
  } else if (path.endsWith('/webhooks/{webhookId}')) {
    ids.webhookId = expectStatus(
      await t.http.post(
        `/management/v1/projects/${tenant.projectId}/webhooks`,
        { url: 'http://127.0.0.1:9/doomed', events: ['thread.created'] },
        h,
      ),
      201,
      'fresh webhook',
    ).body.id;
  } else if (path === '/management/v1/threads/{threadId}') {
    ids.threadId = expectStatus(
      await t.http.post('/messaging/v1/messages', { text: 'a thread the walk erases', user_id: 'walk-doomed' }, tenant.bearer),
      200,
      'fresh thread',
    ).body.thread_id;
  } else if (path.endsWith('/secrets/{name}')) {
    ids.name = `DOOMED_${randomBytes(4).toString('hex').toUpperCase()}`;
    expectStatus(
      await t.http.request('PUT', `/management/v1/agents/${tenant.agentId}/secrets/${ids.name}`, { body: { value: 'doomed' }, headers: h }),
      204,
      'fresh secret',
    );
  } else if (path.endsWith('/senders/{senderId}')) {
    ids.senderId = expectStatus(
      await t.http.post('/management/v1/senders', { channel: 'sms', phone_number: randomPhone() }, h),
      201,
      'fresh sender',
    ).body.id;
  }
  return ids;
}

/** The table holding the resource a path parameter names (for re-reading it after a rejected mutation). */
export function tableOf(param: string, path: string): string | undefined {
  const tables: Record<string, string> = {
    projectId: 'projects',
    agentId: 'agents',
    versionId: 'agent_versions',
    threadId: 'threads',
    interactionId: 'interactions',
    eventId: 'events',
    senderId: 'senders',
    webhookId: 'webhook_endpoints',
    deliveryId: 'webhook_deliveries',
    keyId: path.includes('publishable-keys') ? 'publishable_keys' : 'agent_api_keys',
  };
  return tables[param];
}

export function fillPath(path: string, ids: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!(name in ids)) throw new Error(`no id for path parameter ${name} of ${path}`);
    return encodeURIComponent(ids[name]!);
  });
}
