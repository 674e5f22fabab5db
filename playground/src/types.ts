/** Wire shapes the page reads (openapi.json; docs/engines.md for the traces). Everything in them is untrusted text. */

export interface Page<T> {
  results: T[];
  meta: { has_more: boolean; after_cursor: string | null; before_cursor: string | null };
  links: { next: string | null; prev: string | null };
}

export interface Project {
  id: string;
  name: string;
}

export interface Agent {
  id: string;
  project_id: string;
  name: string;
  description: string | null;
  runtime: 'v1' | 'v2';
  live_version_id: string | null;
  live_version_tag: string | null;
}

export interface Version {
  id: string;
  number: number;
  version_tag: string;
  status: 'draft' | 'published' | 'archived';
  is_live: boolean;
  label: string | null;
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

export type Trace = V1Trace | V2Trace;

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
