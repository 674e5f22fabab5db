/**
 * The public HTTP API, as the page uses it: management calls with the organization API key, messaging with an
 * access token from a publishable-key exchange. Same origin; the base path is whatever precedes `/playground`.
 */
import type {
  Agent,
  Analytics,
  Evaluation,
  Page,
  Project,
  TestCase,
  ThreadItem,
  ThreadMessage,
  TokenResponse,
  TraceRecord,
  Usage,
  Version,
  WelcomeMessage,
} from './types';

/** `/api/playground/` → `/api`; the page may also be reached under the legacy base path or a proxy's prefix. */
export const API_BASE = location.pathname.replace(/\/playground(\/.*)?$/, '');

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | boolean | undefined | Array<string | undefined>>;

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

/** Turns a failed response into an ApiError: the error envelope, or the token endpoint's OAuth body. */
export async function apiError(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => undefined)) as
    { error?: { code?: string; message?: string; request_id?: string } | string; error_description?: string } | undefined;
  const error = body?.error;
  if (typeof error === 'object' && error) {
    return new ApiError(res.status, error.code ?? 'error', error.message ?? res.statusText, error.request_id);
  }
  if (typeof error === 'string') return new ApiError(res.status, error, body?.error_description ?? error);
  return new ApiError(res.status, 'http_error', `${res.status} ${res.statusText}`);
}

async function call<T>(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw await apiError(res);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** Marks an agent the playground made to try a draft (see previewDraft); the description says so to people too. */
export const previewDescription = (agentId: string) => `Playground draft preview of agent ${agentId}. Safe to delete.`;

export class ManagementApi {
  private readonly headers: Record<string, string>;

  constructor(orgKey: string) {
    this.headers = { 'x-organization-api-key': orgKey };
  }

  private get<T>(path: string, query?: Query) {
    return call<T>('GET', withQuery(path, query), this.headers);
  }

  private post<T>(path: string, body?: unknown) {
    return call<T>('POST', withQuery(path), this.headers, body);
  }

  projects() {
    return this.get<Page<Project>>('/management/v1/projects', { 'page[size]': 100 });
  }

  agents(projectId: string) {
    return this.get<Page<Agent>>(`/management/v1/projects/${projectId}/agents`, { 'page[size]': 100, sort_by: 'name', sort_order: 'asc' });
  }

  agent(agentId: string) {
    return this.get<Agent>(`/management/v1/agents/${agentId}`);
  }

  /** Base versions only (no revision items), newest first. */
  versions(agentId: string) {
    return this.get<Page<Version>>(`/management/v1/agents/${agentId}/versions`, {
      'page[size]': 100,
      'filters[exclude_revisions]': true,
    });
  }

  /** A key restricted to this page's origin, so a leaked one is of no use elsewhere. */
  createPublishableKey(agentId: string) {
    return this.post<{ id: string; publishable_key: string }>(`/management/v1/agents/${agentId}/publishable-keys`, {
      allowed_origins: [location.origin],
    });
  }

  deletePublishableKey(agentId: string, keyId: string) {
    return call<void>('DELETE', withQuery(`/management/v1/agents/${agentId}/publishable-keys/${keyId}`), this.headers);
  }

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
    return this.post<TestCase>(`/management/v1/agents/${agentId}/test-cases/from-thread`, { thread_id: threadId });
  }

  startEvaluation(agentId: string, versionId: string) {
    return this.post<{ id: string; status: string }>(`/management/v1/agents/${agentId}/versions/${versionId}/evaluations`);
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
   * The messaging API answers with an agent's live version only. To try a draft, the playground copies its bundle
   * into a preview agent of the same project (made once per agent, then reused) and publishes it there.
   */
  async previewDraft(agent: Agent, version: Version): Promise<Agent> {
    const description = previewDescription(agent.id);
    const existing = (await this.agents(agent.project_id)).results.find((a) => a.description === description);
    const preview =
      existing ??
      (await this.post<Agent>(`/management/v1/projects/${agent.project_id}/agents`, {
        name: `${agent.name.slice(0, 80)} (draft preview)`,
        description,
        runtime: agent.runtime,
      }));
    const { bundle } = await this.get<{ bundle: unknown }>(`/management/v1/agents/${agent.id}/versions/${version.id}/pull`);
    const versionId =
      preview.live_version_id ?? (await this.post<Version>(`/management/v1/agents/${preview.id}/versions`, { source: 'empty' })).id;
    await this.post(`/management/v1/agents/${preview.id}/versions/${versionId}/push`, {
      bundle,
      message: `${version.version_tag} of ${agent.name} (${agent.id})`,
    });
    await this.post(`/management/v1/agents/${preview.id}/versions/${versionId}/publish`);
    return this.agent(preview.id);
  }
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
