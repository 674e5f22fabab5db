/**
 * The public HTTP API, as the console uses it: management calls with the organization API key or a login-session
 * token, messaging with an access token from a publishable-key exchange. Same origin; the base path is whatever
 * precedes `/console` (or the legacy `/playground`).
 */
import type {
  Agent,
  AgentApiKey,
  Analytics,
  Evaluation,
  KnowledgeSearch,
  KnowledgeUpload,
  Page,
  Project,
  PublishableKey,
  Pulled,
  PushResult,
  Template,
  TestCase,
  ThreadItem,
  ThreadMessage,
  TokenResponse,
  TraceRecord,
  Traffic,
  TrafficArm,
  Usage,
  Version,
  Webhook,
  WebhookDelivery,
  WelcomeMessage,
} from './types';

/** `/api/console/` → `/api`; the page may also be reached under the legacy base path or a proxy's prefix. */
export const API_BASE = location.pathname.replace(/\/(console|playground)(\/.*)?$/, '');

/** One entry of the error envelope's `details`: which field, and what is wrong with it. */
export interface ErrorDetail {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | boolean | undefined | Array<string | undefined>>;

function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== '') params.append(key, String(item));
    }
  }
  const qs = params.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

interface ErrorBody {
  error?: { code?: string; message?: string; request_id?: string; details?: unknown } | string;
  error_description?: string;
}

/** Only well-formed `{field, message}` entries: the body is the server's, but the page trusts no shape. */
function detailsOf(value: unknown): ErrorDetail[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((d: unknown) => {
    const entry = d as { field?: unknown; message?: unknown };
    return typeof entry?.message === 'string'
      ? [{ field: typeof entry.field === 'string' ? entry.field : '', message: entry.message }]
      : [];
  });
}

/** Turns a failed response into an ApiError: the error envelope (with its details), or the token endpoint's OAuth body. */
export async function apiError(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => undefined)) as ErrorBody | undefined;
  const error = body?.error;
  if (typeof error === 'object' && error) {
    return new ApiError(res.status, error.code ?? 'error', error.message ?? res.statusText, error.request_id, detailsOf(error.details));
  }
  if (typeof error === 'string') return new ApiError(res.status, error, body?.error_description ?? error);
  return new ApiError(res.status, 'http_error', `${res.status} ${res.statusText}`);
}

async function call<T>(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<T> {
  const form = body instanceof FormData;
  const res = await fetch(url, {
    method,
    headers: body === undefined || form ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
  });
  if (!res.ok) throw await apiError(res);
  // 202 may carry a body (an evaluation run's id) or none; 204 never does.
  const text = res.status === 204 ? '' : await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Marks an agent the console made to try a version that is not live (see preview); the description says so to people too. */
export const previewDescription = (agentId: string) => `Playground draft preview of agent ${agentId}. Safe to delete.`;

/** How management calls authenticate: the organization key header, or a login session's bearer token. */
export type ManagementCredential = { kind: 'org'; key: string } | { kind: 'session'; token: string };

export class ManagementApi {
  private readonly headers: Record<string, string>;

  constructor(credential: ManagementCredential) {
    this.headers =
      credential.kind === 'org' ? { 'x-organization-api-key': credential.key } : { authorization: `Bearer ${credential.token}` };
  }

  /** Any management GET (path under the API base, e.g. `/management/v1/inbox`); a failure is an ApiError. */
  get<T>(path: string, query?: Query) {
    return call<T>('GET', withQuery(path, query), this.headers);
  }

  /** Any management write; a JSON body (or FormData), a failure is an ApiError. */
  send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown) {
    return call<T>(method, withQuery(path), this.headers, body);
  }

  // Projects

  /** Oldest first: the first project made (the demo one, with `npm start`) leads. */
  projects() {
    return this.get<Page<Project>>('/management/v1/projects', { 'page[size]': 100, sort_by: 'created_at', sort_order: 'asc' });
  }

  createProject(name: string) {
    return this.send<Project>('POST', '/management/v1/projects', { name });
  }

  renameProject(projectId: string, name: string) {
    return this.send<Project>('PATCH', `/management/v1/projects/${projectId}`, { name });
  }

  deleteProject(projectId: string) {
    return this.send<void>('DELETE', `/management/v1/projects/${projectId}`);
  }

  // Agents

  agents(projectId: string) {
    return this.get<Page<Agent>>(`/management/v1/projects/${projectId}/agents`, { 'page[size]': 100, sort_by: 'name', sort_order: 'asc' });
  }

  agent(agentId: string) {
    return this.get<Agent>(`/management/v1/agents/${agentId}`);
  }

  createAgent(projectId: string, body: { name: string; description?: string; runtime: 'v1' | 'v2' }) {
    return this.send<Agent>('POST', `/management/v1/projects/${projectId}/agents`, body);
  }

  deleteAgent(agentId: string) {
    return this.send<void>('DELETE', `/management/v1/agents/${agentId}`);
  }

  templates() {
    return this.get<{ results: Template[] }>('/management/v1/templates');
  }

  bundleSchema() {
    return this.get<Record<string, unknown>>('/management/v1/bundle-schema');
  }

  // Versions and revisions

  /** Versions and their pushed revisions (each a listing item), newest first. */
  versions(agentId: string) {
    return this.get<Page<Version>>(`/management/v1/agents/${agentId}/versions`, { 'page[size]': 100 });
  }

  createVersion(agentId: string, body: { source: 'empty' | 'template' | 'clone'; template?: string; from_version_id?: string }) {
    return this.send<Version>('POST', `/management/v1/agents/${agentId}/versions`, body);
  }

  pull(agentId: string, versionId: string, versionTag?: string) {
    return this.get<Pulled>(`/management/v1/agents/${agentId}/versions/${versionId}/pull`, { version_tag: versionTag });
  }

  push(agentId: string, versionId: string, bundle: unknown, message?: string) {
    return this.send<PushResult>('POST', `/management/v1/agents/${agentId}/versions/${versionId}/push`, { bundle, message });
  }

  publish(agentId: string, versionId: string) {
    return this.send<Version>('POST', `/management/v1/agents/${agentId}/versions/${versionId}/publish`);
  }

  archive(agentId: string, versionId: string) {
    return this.send<Version>('POST', `/management/v1/agents/${agentId}/versions/${versionId}/archive`);
  }

  traffic(agentId: string) {
    return this.get<Traffic>(`/management/v1/agents/${agentId}/traffic`);
  }

  setTraffic(agentId: string, splits: Array<Pick<TrafficArm, 'version_id' | 'percent'>>) {
    return this.send<Traffic>('PUT', `/management/v1/agents/${agentId}/traffic`, { splits });
  }

  endTraffic(agentId: string) {
    return this.send<void>('DELETE', `/management/v1/agents/${agentId}/traffic`);
  }

  // Knowledge

  uploadKnowledge(agentId: string, versionId: string, files: File[]) {
    const form = new FormData();
    for (const file of files) form.append('files', file, file.name);
    return this.send<KnowledgeUpload>('POST', `/management/v1/agents/${agentId}/versions/${versionId}/knowledge`, form);
  }

  removeKnowledge(agentId: string, versionId: string, documentId: string) {
    return this.send<PushResult>(
      'DELETE',
      `/management/v1/agents/${agentId}/versions/${versionId}/knowledge/${encodeURIComponent(documentId)}`,
    );
  }

  searchKnowledge(agentId: string, versionId: string, query: string) {
    return this.send<KnowledgeSearch>('POST', `/management/v1/agents/${agentId}/versions/${versionId}/knowledge/search`, { query });
  }

  // Keys

  publishableKeys(agentId: string) {
    return this.get<Page<PublishableKey>>(`/management/v1/agents/${agentId}/publishable-keys`, { 'page[size]': 100 });
  }

  createPublishableKey(agentId: string, restrictions: { allowed_origins?: string[]; allowed_ip_ranges?: string[] }) {
    return this.send<PublishableKey & { publishable_key: string }>(
      'POST',
      `/management/v1/agents/${agentId}/publishable-keys`,
      restrictions,
    );
  }

  deletePublishableKey(agentId: string, keyId: string) {
    return this.send<void>('DELETE', `/management/v1/agents/${agentId}/publishable-keys/${keyId}`);
  }

  apiKeys(agentId: string) {
    return this.get<Page<AgentApiKey>>(`/management/v1/agents/${agentId}/api-keys`, { 'page[size]': 100 });
  }

  createApiKey(agentId: string) {
    return this.send<AgentApiKey & { api_key: string }>('POST', `/management/v1/agents/${agentId}/api-keys`);
  }

  deleteApiKey(agentId: string, keyId: string) {
    return this.send<void>('DELETE', `/management/v1/agents/${agentId}/api-keys/${keyId}`);
  }

  // Webhooks

  webhooks(projectId: string) {
    return this.get<Page<Webhook>>(`/management/v1/projects/${projectId}/webhooks`, { 'page[size]': 100 });
  }

  createWebhook(projectId: string, body: { url: string; events: string[]; description?: string }) {
    return this.send<Webhook & { secret: string }>('POST', `/management/v1/projects/${projectId}/webhooks`, body);
  }

  updateWebhook(projectId: string, webhookId: string, body: { enabled?: boolean; events?: string[]; url?: string }) {
    return this.send<Webhook>('PATCH', `/management/v1/projects/${projectId}/webhooks/${webhookId}`, body);
  }

  deleteWebhook(projectId: string, webhookId: string) {
    return this.send<void>('DELETE', `/management/v1/projects/${projectId}/webhooks/${webhookId}`);
  }

  deliveries(projectId: string, webhookId: string) {
    return this.get<Page<WebhookDelivery>>(`/management/v1/projects/${projectId}/webhooks/${webhookId}/deliveries`, { 'page[size]': 20 });
  }

  /** The event types a webhook can subscribe to, as the service's own OpenAPI document lists them. */
  async webhookEventTypes(): Promise<string[]> {
    const doc = await call<{ components?: { schemas?: Record<string, { properties?: { events?: { items?: { enum?: string[] } } } }> } }>(
      'GET',
      withQuery('/openapi.json'),
      {},
    );
    return doc.components?.schemas?.CreateWebhookDto?.properties?.events?.items?.enum ?? [];
  }

  // Threads and usage

  threads(filters: Query) {
    return this.get<Page<ThreadItem>>('/management/v1/threads', { 'page[size]': 20, ...filters });
  }

  /** Follows a page link (path and query as the API wrote it, filters included). */
  follow<T>(link: string) {
    return call<T>('GET', link, this.headers);
  }

  transcript(threadId: string, runtimeVersion: string) {
    return this.get<Page<ThreadMessage>>(`/management/v1/threads/${threadId}/messages`, {
      'page[size]': 100,
      sort_order: 'asc',
      runtime_version: runtimeVersion,
    });
  }

  traces(threadId: string, agentId: string) {
    return this.get<Page<TraceRecord>>(`/management/v1/threads/${threadId}/trace`, { 'page[size]': 100, agent_id: agentId });
  }

  testCases(agentId: string) {
    return this.get<Page<TestCase>>(`/management/v1/agents/${agentId}/test-cases`, { 'page[size]': 100 });
  }

  testCaseFromThread(agentId: string, threadId: string) {
    return this.send<TestCase>('POST', `/management/v1/agents/${agentId}/test-cases/from-thread`, { thread_id: threadId });
  }

  startEvaluation(agentId: string, versionId: string) {
    return this.send<{ id: string; status: string }>('POST', `/management/v1/agents/${agentId}/versions/${versionId}/evaluations`);
  }

  evaluation(agentId: string, versionId: string, evaluationId: string) {
    return this.get<Evaluation>(`/management/v1/agents/${agentId}/versions/${versionId}/evaluations/${evaluationId}`);
  }

  analytics(agentId: string, groupBy: Analytics['group_by']) {
    return this.get<Analytics>(`/management/v1/agents/${agentId}/analytics`, { group_by: groupBy });
  }

  usage(agentId: string, createdFrom?: string) {
    return this.get<Usage>(`/management/v1/agents/${agentId}/usage`, { created_from: createdFrom });
  }

  /**
   * The messaging API answers with an agent's live version only. To try another version or revision, the console
   * copies its bundle into a preview agent of the same project (made once per agent, then reused) and publishes it there.
   */
  async preview(agent: Agent, version: Version): Promise<Agent> {
    const description = previewDescription(agent.id);
    const existing = (await this.agents(agent.project_id)).results.find((a) => a.description === description);
    const preview =
      existing ??
      (await this.createAgent(agent.project_id, {
        name: `${agent.name.slice(0, 80)} (draft preview)`,
        description,
        runtime: agent.runtime,
      }));
    const baseId = version.base_version_id ?? version.id;
    const { bundle } = await this.pull(agent.id, baseId, version.version_tag);
    const versionId = preview.live_version_id ?? (await this.createVersion(preview.id, { source: 'empty' })).id;
    await this.push(preview.id, versionId, bundle, `${version.version_tag} of ${agent.name} (${agent.id})`);
    await this.publish(preview.id, versionId);
    return this.agent(preview.id);
  }
}

/** A login session: `grant_type=password` at the token endpoint (DESIGN.md), a bearer token for management calls. */
export function passwordLogin(username: string, password: string) {
  return call<TokenResponse>('POST', withQuery('/management/v1/auth/token'), {}, { grant_type: 'password', username, password });
}

/** Exchanges the publishable key for access tokens, again a minute before each one expires. */
export class MessagingAuth {
  private token?: { value: string; renewAt: number; agentId: string | null };

  constructor(readonly publishableKey: string) {}

  async exchange(): Promise<TokenResponse> {
    const body = await call<TokenResponse>(
      'POST',
      withQuery('/management/v1/auth/token'),
      {},
      {
        grant_type: 'publishable_key',
        publishable_key: this.publishableKey,
      },
    );
    this.token = { value: body.access_token, renewAt: Date.now() + Math.max(body.expires_in - 60, 1) * 1000, agentId: body.agent_id };
    return body;
  }

  async accessToken(): Promise<string> {
    if (!this.token || Date.now() >= this.token.renewAt) await this.exchange();
    return this.token!.value;
  }

  /** The end user's thumbs up or down on a reply; rating again replaces it. */
  async rate(messageId: string, rating: 'up' | 'down'): Promise<void> {
    await call(
      'POST',
      withQuery(`/messaging/v1/messages/${messageId}/feedback`),
      { authorization: `Bearer ${await this.accessToken()}` },
      { rating },
    );
  }

  async welcome(): Promise<WelcomeMessage> {
    return call<WelcomeMessage>('GET', withQuery('/messaging/v1/welcome-message'), { authorization: `Bearer ${await this.accessToken()}` });
  }
}

export const streamUrl = () => withQuery('/messaging/v1/messages/stream');

/** The message an error shows people: the envelope's message and each detail (field: message), and the request id. */
export function describeError(error: unknown): { message: string; details: ErrorDetail[]; requestId?: string } {
  if (error instanceof ApiError) return { message: error.message, details: error.details, requestId: error.requestId };
  return { message: error instanceof Error ? error.message : String(error), details: [] };
}
