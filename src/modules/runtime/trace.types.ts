import type { Rule } from '../bundles/bundle.types.js';

/*
 * The reasoning record of one turn (spec "Trace"), discriminated on `runtime`. Type aliases rather than
 * interfaces: they are plain JSON objects, stored as jsonb and served as they are (traces/dto documents them).
 */

/** A parameter or agent-variable value, as engines compute it. */
export type ParamValue = string | number | boolean;
/** Where a v1 parameter's value came from (the message wins over dynamic over static variables). */
export type ParamScope = 'message' | 'static' | 'dynamic';

/** One step the v1 engine decided on: a tool call or a rule evaluation. */
export type V1Decision = {
  type: 'tool_call' | 'rule';
  /** Tool code (tool calls); empty for rules. */
  tool: string;
  parent_tool: string;
  /** `t<n>` for the n-th tool, `r<n>` for the n-th rule. */
  track_id: string;
  status: 'completed' | 'no_results' | 'skipped' | 'triggered' | 'not_triggered';
  check_status: 'passed' | 'failed' | 'not_applicable';
  trigger: { type: V1TriggerType; reasons: string[]; matched_objective: string };
  trigger_type: V1TriggerType;
  /** The rule's condition method, action, computation and code (empty strings for tool calls). */
  rule: { type: string; action: Rule['action'] | ''; reason: string; code: string };
  text: string;
  fail_reason: string;
  computation: string;
  output_param: string;
  output_title: string;
  qualified: boolean;
  /** Tool calls: `results`, `empty` or `skipped`; rules: the action taken, or `none`. */
  matched_branch: string;
};

export type V1TriggerType = 'always' | 'intent' | 'parameter';

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

export type V1RuleEvaluation = {
  code: string;
  triggered: boolean;
  reason: Array<{ passed: boolean; trigger_type: 'parameter'; condition: { method: string; operation: string } }>;
};

/** The v1 (decisioning) trace: what was understood, the tool and rule decisions, the parameters, the response. */
export type V1Trace = {
  runtime: 'v1';
  input: { message: string };
  understanding: { intents: string[]; guardrails: { passed: boolean; reason: string } };
  decisions: V1Decision[];
  computed_parameters: Array<{ code: string; title: string; scope: ParamScope }>;
  response: V1Response;
  rules_evaluations: V1RuleEvaluation[];
};

export type V2Citation = { marker: number; document_id: string; title: string; url: string; passage_id: string; text: string };

/** The v2 (grounded) trace: typed sections from the question to the citations the reply provably used. */
export type V2Trace = {
  runtime: 'v2';
  build: string;
  understanding: {
    question: string;
    keywords: string[];
    context_keywords: string[];
    intent: string | null;
    intents: Array<{ name: string; score: number }>;
  };
  learned: Array<{ source: string; key: string; value: ParamValue }>;
  sources_read: Array<{ document_id: string; title: string; passages_considered: number }>;
  passages_used: Array<{ passage_id: string; document_id: string; score: number; text: string }>;
  citations_used: V2Citation[];
  policies: Array<{ code: string; decision: string; detail: string }>;
  checks: Array<{ name: string; passed: boolean; detail: string }>;
  narrative: string;
};

export type Trace = V1Trace | V2Trace;
