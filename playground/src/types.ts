/** Wire shapes the page reads (openapi.json; docs/engines.md for the traces). Everything in them is untrusted text. */

export interface Page<T> {
  results: T[];
  meta: { has_more: boolean; after_cursor: string | null; before_cursor: string | null };
  links: { next: string | null; prev: string | null };
}

export interface Project {
  id: string;
  name: string;
  created_at: string;
}

export interface Agent {
  id: string;
  project_id: string;
  name: string;
  description: string | null;
  runtime: 'v1' | 'v2';
  live_version_id: string | null;
  live_version_tag: string | null;
  created_at: string;
}

/** A version (`is_revision: false`) or, in listings, one of its pushed revisions. */
export interface Version {
  id: string;
  number: number;
  version_tag: string;
  status: 'draft' | 'published' | 'archived';
  is_live: boolean;
  is_revision: boolean;
  base_version_id: string | null;
  label: string | null;
  digest: string;
  message: string | null;
  created_at: string;
}

export interface PushResult {
  version_id: string;
  revision_id: string;
  version_tag: string;
  digest: string;
}

export interface Pulled {
  version_id: string;
  version_tag: string;
  bundle: Record<string, unknown>;
}

export interface Template {
  id: string;
  name: string;
  description: string;
  runtime: 'v1' | 'v2';
}

export interface KnowledgeDocumentItem {
  id: string;
  title: string;
  url: string | null;
  characters: number;
}

export interface KnowledgeUpload extends PushResult {
  documents: KnowledgeDocumentItem[];
  replaced: string[];
}

export interface KnowledgeHit {
  rank: number;
  passage_id: string;
  document_id: string;
  title: string;
  score: number;
  text: string;
}

export interface KnowledgeSearch {
  version_tag: string;
  answerable: boolean;
  results: KnowledgeHit[];
  considered: Array<{ document_id: string; title: string; passages_considered: number }>;
  narrative: string;
}

export interface TrafficArm {
  version_id: string;
  version_tag: string;
  percent: number;
  is_live: boolean;
}

export interface Traffic {
  agent_id: string;
  live_version_id: string | null;
  splits: TrafficArm[];
  updated_at: string | null;
}

export interface PublishableKey {
  id: string;
  key_prefix: string;
  allowed_origins: string[];
  allowed_ip_ranges: string[];
  created_at: string;
  publishable_key?: string;
}

export interface AgentApiKey {
  id: string;
  key_prefix: string;
  created_at: string;
  api_key?: string;
}

export interface Webhook {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  consecutive_failures: number;
  created_at: string;
  secret?: string;
}

export interface WebhookDelivery {
  id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
}

export interface TokenResponse {
  access_token: string;
  expires_in: number;
  agent_id: string | null;
  organization_id: string;
}

export interface WelcomeMessage {
  welcome_message: string;
  followup_suggestions: string[];
}

export type Scalar = string | number | boolean | null;

export interface Card {
  is_recommended: boolean;
  index: number;
  title?: string;
  capability?: string;
  instance?: string;
  json_data: { entity: Record<string, unknown>; sub_entities: Array<{ name: string; items: Array<Record<string, unknown>> }> };
}

export interface V1Decision {
  type: string;
  tool: string;
  track_id: string;
  status: string;
  check_status: string;
  trigger: { type: string; reasons: string[]; matched_objective: string };
  rule: { type: string; action: string; reason: string; code: string };
  text: string;
  fail_reason: string;
  computation: string;
}

/** Agent mode: how the model's loop ran and why it stopped. */
export interface AgentRun {
  provider: string;
  max_steps: number;
  model_calls: number;
  tokens_used: number;
  stop_reason: string;
  detail: string;
}

/** Agent mode (v2 trace `steps[]`): one tool call the model made. */
export interface AgentStep {
  id: string;
  tool: string;
  parent_tool: string | null;
  status: string;
  arguments: string;
  duration_ms: number;
  output_title: string;
  fail_reason: string;
}

export interface V1Trace {
  runtime: 'v1';
  agent?: AgentRun;
  understanding: { intents: string[]; guardrails: { passed: boolean; reason: string } };
  decisions: V1Decision[];
  computed_parameters: Array<{ code: string; title: string; scope: string }>;
  response: { type: string };
  rules_evaluations: Array<{
    code: string;
    triggered: boolean;
    reason: Array<{ passed: boolean; condition: { method: string; operation: string } }>;
  }>;
}

export interface Citation {
  marker: number;
  document_id: string;
  title: string;
  url: string;
  passage_id: string;
  text: string;
}

export interface V2Trace {
  runtime: 'v2';
  build: string;
  understanding: { question: string; keywords: string[]; intent: string | null };
  passages_used: Array<{ passage_id: string; document_id: string; score: number; text: string }>;
  citations_used: Citation[];
  policies: Array<{ code: string; decision: string; detail: string }>;
  checks: Array<{ name: string; passed: boolean; detail: string }>;
  narrative: string;
  steps?: AgentStep[];
  agent?: AgentRun;
}

/** Who wrote the reply: the provider and model the bundle names, the endpoint it calls, and who actually wrote. */
export interface TraceModel {
  provider: string;
  name: string | null;
  endpoint: string | null;
  writer: string;
}

export type Trace = (V1Trace | V2Trace) & { model?: TraceModel };

export interface Message {
  id: string;
  text: string;
  cards: Card[];
  followup_suggestions: string[];
  input_tokens: number;
  output_tokens: number;
  trace_info?: Trace;
}

export interface ThreadItem {
  id: string;
  title: string;
  created_at: string;
  version_tag: string;
  user_id: string;
  external_id: string | null;
}

export interface ThreadMessage {
  id: string;
  role: 'user' | 'agent';
  text: string;
  created_at: string;
  interaction_id: string;
  cards?: Card[];
  followup_suggestions?: string[];
  version_tag?: string;
  input_tokens?: number;
  output_tokens?: number;
}

export type TraceRecord = Trace & { interaction_id: string };

export interface Usage {
  interaction_count: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  reasoning_tokens: number;
  total_tokens: number;
}

export interface TestCase {
  id: string;
  name: string;
  turns: Array<{ text: string; expect: Record<string, unknown> }>;
}

export interface CaseResult {
  test_case_id: string;
  name: string;
  passed: boolean;
  regression: boolean;
  turns: Array<{ text: string; reply: string; failures: string[] }>;
}

export interface Evaluation {
  id: string;
  version_id: string;
  version_tag: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  passed: boolean | null;
  case_count: number;
  passed_count: number;
  cases: CaseResult[];
  compared_to: {
    version_id: string;
    version_tag: string;
    evaluation_id: string;
    regressions: Array<{ test_case_id: string; name: string; failures: string[] }>;
    fixed: Array<{ test_case_id: string; name: string }>;
  } | null;
  error: string | null;
}

export interface AnalyticsGroup {
  key: string;
  version_id: string | null;
  version_tags: string[];
  threads: number;
  messages: number;
  contained: number;
  handed_off: number;
  declined: number;
  containment_rate: number | null;
  handoff_rate: number | null;
  decline_rate: number | null;
  feedback_up: number;
  feedback_down: number;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
  input_tokens: number;
  output_tokens: number;
}

export interface Analytics {
  group_by: 'version_tag' | 'arm' | 'day';
  groups: AnalyticsGroup[];
}
