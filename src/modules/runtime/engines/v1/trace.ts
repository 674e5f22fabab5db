import type { CardDto } from '../../runtime.types.js';
import type { V1Decision, V1Response, V1Trace } from '../../trace.types.js';
import type { ComputedParam } from '../variables.js';
import type { V1Index } from './prepare.js';
import { filterPhrase } from './reply.js';
import { OP_METHOD, type RuleEval } from './rules.js';
import type { ToolRun } from './search.js';
import type { HttpToolRun } from './http-tool.js';

/** What the v1 engine decided for a turn that passed the guardrails: everything its trace reports. */
export interface V1Decided {
  message: string;
  intents: string[];
  intent: string | null;
  guardReason: string;
  runs: ToolRun[];
  /** HTTP tools, called or skipped (decisions after the catalog tools'). */
  http: HttpToolRun[];
  evals: RuleEval[];
  params: ComputedParam[];
  responseType: V1Response['type'];
  followups: string[];
  cards: CardDto[];
  ask?: RuleEval;
  block?: RuleEval;
}

/** The v1 trace of a decided turn, once the final wording (`text`) is known. */
export function v1Trace(d: V1Decided, ix: V1Index, text: string): V1Trace {
  const { ask, block } = d;
  return {
    runtime: 'v1',
    input: { message: d.message },
    understanding: { intents: d.intents, guardrails: { passed: true, reason: d.guardReason } },
    decisions: [
      ...d.runs.map((r, i) => toolDecision(r, i, d.intent)),
      ...d.http.map((r, i) => httpToolDecision(r, d.runs.length + i, d.intent)),
      ...d.evals.map((e, i) => ruleDecision(e, i, ix)),
    ],
    computed_parameters: d.params.map((p) => ({ code: p.code, title: p.title, scope: p.scope })),
    response: {
      type: d.responseType,
      message: text,
      suggestions: d.followups,
      question_reason: ask ? `rule ${ask.rule.code}: ${ask.computation}` : '',
      asking_for: ask ? (ask.rule.asking_for ?? [ask.rule.when.param]) : [],
      block_message: block ? block.rule.message : '',
      error: '',
      jsx_widgets: d.cards.map((c) => ({
        name: c.title ?? '',
        category: c.capability ?? '',
        rendered_jsx: c.rendered_jsx,
        is_recommended: c.is_recommended,
        index: c.index,
      })),
    },
    rules_evaluations: d.evals.map((e) => ({
      code: e.rule.code,
      triggered: e.triggered,
      reason: [{ passed: e.triggered, trigger_type: 'parameter', condition: { method: e.method, operation: e.computation } }],
    })),
  };
}

/** The v1 trace of a turn a guardrail blocked: nothing was understood or decided. */
export function blockedV1Trace(message: string, reason: string, blockMessage: string, suggestions: string[], text: string): V1Trace {
  return {
    runtime: 'v1',
    input: { message },
    understanding: { intents: [], guardrails: { passed: false, reason } },
    decisions: [],
    computed_parameters: [],
    response: {
      type: 'block',
      message: text,
      suggestions,
      question_reason: '',
      asking_for: [],
      block_message: blockMessage,
      error: '',
      jsx_widgets: [],
    },
    rules_evaluations: [],
  };
}

function toolDecision(run: ToolRun, i: number, intent: string | null): V1Decision {
  const top = run.hits[0]?.record;
  return {
    type: 'tool_call',
    tool: run.tool.def.code,
    parent_tool: '',
    track_id: `t${i + 1}`,
    status: !run.ran ? 'skipped' : run.hits.length ? 'completed' : 'no_results',
    check_status: run.ran ? 'passed' : 'not_applicable',
    trigger: {
      type: run.triggerType,
      reasons: [run.reason],
      matched_objective: run.triggerType === 'intent' && run.ran ? (intent ?? '') : '',
    },
    trigger_type: run.triggerType,
    rule: { type: '', action: '', reason: '', code: '' },
    text: run.ran ? `${run.hits.length} result(s) from ${run.tool.def.collection} for "${run.query}"${filterPhrase(run.filters)}` : '',
    fail_reason: run.ran ? '' : run.reason,
    computation: run.ran
      ? `minisearch BM25+ over ${run.tool.def.collection} fields [${[...new Set([run.tool.def.title_field, ...(run.tool.def.fields ?? [])])].join(', ')}], max ${run.tool.def.max_results}${run.filters.length ? `, filters ${run.filters.map((f) => `${f.field} ${f.kind === 'max' ? '<=' : f.kind === 'min' ? '>=' : '='} ${String(f.value)} (from ${f.param})`).join(', ')}` : ''}`
      : '',
    output_param: `${run.tool.def.code}.results`,
    output_title: top ? String(top[run.tool.def.title_field] ?? top.id) : '',
    qualified: run.ran && run.hits.length > 0,
    matched_branch: !run.ran ? 'skipped' : run.hits.length ? 'results' : 'empty',
  };
}

function httpToolDecision(run: HttpToolRun, i: number, intent: string | null): V1Decision {
  const { call } = run;
  return {
    type: 'tool_call',
    tool: run.tool.def.code,
    parent_tool: '',
    track_id: `t${i + 1}`,
    status: !run.ran ? 'skipped' : run.ok ? 'completed' : 'failed',
    check_status: !run.ran ? 'not_applicable' : run.ok ? 'passed' : 'failed',
    trigger: {
      type: run.triggerType,
      reasons: [run.reason],
      matched_objective: run.triggerType === 'intent' && run.ran ? (intent ?? '') : '',
    },
    trigger_type: run.triggerType,
    rule: { type: '', action: '', reason: '', code: '' },
    text: run.ran ? run.text : '',
    fail_reason: !run.ran ? run.reason : run.ok ? '' : `${call.failure_reason}: ${call.detail}`,
    computation: run.ran
      ? `${call.method} ${call.url} with [${call.params_sent.join(', ')}] → ${call.status ?? 'no response'}${call.latency_ms === null ? '' : ` in ${call.latency_ms} ms`}`
      : '',
    output_param: `${run.tool.def.code}.response`,
    output_title: run.title,
    qualified: run.ran && run.ok,
    matched_branch: !run.ran ? 'skipped' : run.ok ? 'response' : 'fallback',
    http: call,
  };
}

function ruleDecision(e: RuleEval, i: number, ix: V1Index): V1Decision {
  return {
    type: 'rule',
    tool: '',
    parent_tool: '',
    track_id: `r${i + 1}`,
    status: e.triggered ? 'triggered' : 'not_triggered',
    check_status: e.triggered ? 'passed' : 'failed',
    trigger: { type: 'parameter', reasons: [e.computation], matched_objective: '' },
    trigger_type: 'parameter',
    rule: { type: OP_METHOD[e.rule.when.op] ?? e.rule.when.op, action: e.rule.action, reason: e.computation, code: e.rule.code },
    text: e.triggered ? e.rule.message : '',
    fail_reason: e.triggered
      ? ''
      : e.present || e.rule.when.op === 'exists'
        ? 'condition not met'
        : `parameter ${e.rule.when.param} not computed`,
    computation: e.computation,
    output_param: e.rule.when.param,
    output_title: ix.titles.get(e.rule.when.param) ?? e.rule.when.param,
    qualified: e.triggered,
    matched_branch: e.triggered ? e.rule.action : 'none',
  };
}
