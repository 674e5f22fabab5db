import type { Rule } from '../bundles/bundle.types.js';

/*
 * The reasoning record of one turn (spec "Trace"), discriminated on `runtime`. Type aliases rather than
 * interfaces: they are plain JSON objects, stored as jsonb and served as they are (runtime/dto documents them).
 */

/** A parameter or agent-variable value, as engines compute it. */
export type ParamValue = string | number | boolean;
/** Where a v1 parameter's value came from (the message wins over dynamic over static variables). */
export type ParamScope = 'message' | 'static' | 'dynamic';

export type V1TraceInput = { message: string };
export type V1Guardrails = { passed: boolean; reason: string };
export type V1Understanding = { intents: string[]; guardrails: V1Guardrails };

export type V1TriggerType = 'always' | 'intent' | 'parameter';
export type V1DecisionTrigger = { type: V1TriggerType; reasons: string[]; matched_objective: string };
/** The rule's condition method, action, computation and code (empty strings for tool calls). */
export type V1DecisionRule = { type: string; action: Rule['action'] | ''; reason: string; code: string };

/** One step the v1 engine decided on: a tool call or a rule evaluation. */
export type V1Decision = {
  type: 'tool_call' | 'rule';
  /** Tool code (tool calls); empty for rules. */
  tool: string;
  /** Agent mode: the MCP server of an MCP tool, else null; compose mode: empty. */
  parent_tool: string | null;
  /** `t<n>` for the n-th tool, `r<n>` for the n-th rule; agent mode: the step id (`s<n>`). */
  track_id: string;
  status: 'completed' | 'no_results' | 'skipped' | 'failed' | 'refused' | 'triggered' | 'not_triggered';
  check_status: 'passed' | 'failed' | 'not_applicable';
  trigger: V1DecisionTrigger;
  trigger_type: V1TriggerType;
  rule: V1DecisionRule;
  text: string;
  fail_reason: string;
  computation: string;
  output_param: string;
  output_title: string;
  qualified: boolean;
  /** Tool calls: `results`, `empty` or `skipped`; rules: the action taken, or `none`. */
  matched_branch: string;
  /** HTTP tools only: the call as made (docs/http-tools.md). */
  http?: V1HttpCall;
};

/** An HTTP tool's call in the v1 trace: what was sent (parameter names; values are in the facets) and what came back. */
export type V1HttpCall = {
  method: string;
  /** The URL template (placeholders unfilled). */
  url: string;
  /** The endpoint's status; null when none came (timeout, refused address, connection failure) or the tool was skipped. */
  status: number | null;
  latency_ms: number | null;
  params_sent: string[];
  failure_reason:
    | ''
    | 'timeout'
    | 'http_status'
    | 'invalid_json'
    | 'missing_field'
    | 'response_too_large'
    | 'blocked_address'
    | 'invalid_url'
    | 'dns_failure'
    | 'connection_failed'
    | 'unavailable';
  /** A human explanation of the failure; empty on success. */
  detail: string;
};

export type V1ComputedParameter = { code: string; title: string; scope: ParamScope };
export type V1JsxWidget = { name: string; category: string; rendered_jsx: string; is_recommended: boolean; index: number };

export type V1Response = {
  type: 'answer' | 'answer_with_cards' | 'question' | 'block';
  message: string;
  suggestions: string[];
  question_reason: string;
  asking_for: string[];
  block_message: string;
  error: string;
  jsx_widgets: V1JsxWidget[];
};

export type V1RuleCondition = { method: string; operation: string };
export type V1RuleReason = { passed: boolean; trigger_type: 'parameter'; condition: V1RuleCondition };
export type V1RuleEvaluation = { code: string; triggered: boolean; reason: V1RuleReason[] };

/** The v1 (decisioning) trace: what was understood, the tool and rule decisions, the parameters, the response. */
export type V1Trace = {
  runtime: 'v1';
  input: V1TraceInput;
  understanding: V1Understanding;
  decisions: V1Decision[];
  computed_parameters: V1ComputedParameter[];
  response: V1Response;
  rules_evaluations: V1RuleEvaluation[];
  /** Agent mode only: how the model's loop ran and why it stopped. */
  agent?: AgentRun;
};

/** Agent mode (docs/agents.md): one tool call the model asked for, as it ran (or was refused). */
export type AgentStep = {
  /** `s<n>`, the n-th call of the turn; the same id as the `step` stream event's. */
  id: string;
  /** The tool's name as the model saw it (`<server>__<tool>` for MCP tools). */
  tool: string;
  /** The MCP server of an MCP tool, else null. */
  parent_tool: string | null;
  /** The model call (1-based) that asked for it. */
  model_call: number;
  status: 'completed' | 'failed' | 'refused';
  /** The arguments as the model wrote them (JSON text, at most 2000 characters). */
  arguments: string;
  duration_ms: number;
  /** What it returned, in a few words (a top record's title, `3 passage(s)`), empty when it failed. */
  output_title: string;
  /** Why it failed or was refused; empty when it completed. */
  fail_reason: string;
};

/** Agent mode: the loop's budget, what it used, and why it stopped. */
export type AgentRun = {
  provider: string;
  max_steps: number;
  model_calls: number;
  max_turn_tokens: number;
  tokens_used: number;
  /** `answered`, or why the fallback reply was given (`max_steps`, `token_budget`, `turn_deadline`), or `guardrail`. */
  stop_reason: 'answered' | 'max_steps' | 'token_budget' | 'turn_deadline' | 'guardrail';
  detail: string;
};

export type V2IntentScore = { name: string; score: number };
export type V2Understanding = {
  question: string;
  keywords: string[];
  context_keywords: string[];
  intent: string | null;
  intents: V2IntentScore[];
};
export type V2Learned = { source: string; key: string; value: ParamValue };
export type V2SourceRead = { document_id: string; title: string; passages_considered: number };
export type V2PassageUsed = { passage_id: string; document_id: string; score: number; text: string };
export type V2Citation = { marker: number; document_id: string; title: string; url: string; passage_id: string; text: string };
export type V2Policy = { code: string; decision: string; detail: string };
export type V2Check = { name: string; passed: boolean; detail: string };
/** The decision to answer or decline (knowledge/answerability.ts): the scores compared and the words nothing covered. */
export type V2AnswerableCheck = V2Check & {
  name: 'answerable';
  confidence: number;
  threshold: number;
  margin: number;
  uncovered_words: string[];
};
/** One passage of the fused ranking (docs/knowledge.md): its fused score and its rank in each ranking (1-based). */
export type V2FusedPassage = {
  passage_id: string;
  score: number;
  lexical_rank: number | null;
  dense_rank: number | null;
  similarity: number | null;
};
/** Dense retrieval with the bundle's embeddings model: `used` (fused with the lexical ranking) or `failed` (ranked lexically). */
export type V2DenseRetrieval = {
  status: 'used' | 'failed';
  model: string;
  reason: string | null;
  /** True when the provider was not called this turn: it failed for this revision within the failure hold. */
  held: boolean;
  min_similarity: number | null;
  fused: V2FusedPassage[];
};
/** Whether a model provider's reply says the passages do not answer (null for the builtin writer). */
export type V2ModelDecline = { declined: boolean; how: 'sentence' | 'paraphrase' | null; matched: string | null };

/** The v2 (grounded) trace: typed sections from the question to the citations the reply provably used. */
export type V2Trace = {
  runtime: 'v2';
  build: string;
  understanding: V2Understanding;
  learned: V2Learned[];
  sources_read: V2SourceRead[];
  passages_used: V2PassageUsed[];
  citations_used: V2Citation[];
  policies: V2Policy[];
  checks: Array<V2Check | V2AnswerableCheck>;
  /** Null when the bundle names no embeddings model. */
  dense_retrieval: V2DenseRetrieval | null;
  /** Null when the builtin writer worded the reply. */
  model_decline: V2ModelDecline | null;
  narrative: string;
  /** Agent mode only: the tool calls the model made, in order. */
  steps?: AgentStep[];
  /** Agent mode only: how the model's loop ran and why it stopped. */
  agent?: AgentRun;
};

/**
 * Who wrote the reply: the provider and model the bundle names, the endpoint that provider calls (origin and path,
 * never credentials), and `writer`, the one that actually wrote this reply — `builtin` when the bundle names no
 * model, when the engine's reply is fixed (a block, a question), or when the provider answered nothing.
 */
export type TraceModel = {
  provider: 'builtin' | 'openai' | 'anthropic';
  name: string | null;
  endpoint: string | null;
  writer: 'builtin' | 'openai' | 'anthropic';
};

/** Traces recorded before `model` existed lack it. */
export type Trace = (V1Trace | V2Trace) & { model?: TraceModel };
