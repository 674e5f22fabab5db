import { checkGuardrails, type CompiledGuardrail, type GuardrailVerdict } from '../engines/guardrails.js';
import { followupsFor } from '../engines/followups.js';
import { toCard } from '../engines/v1/reply.js';
import { OP_METHOD, type RuleEval } from '../engines/v1/rules.js';
import { flattenVariables } from '../engines/variables.js';
import type { PreparedAgent } from '../prepared-agent.js';
import { recognizeDecline } from '../providers/grounding.js';
import type { CardDto, TokenUsage, TurnFacets, TurnInput, TurnResult } from '../runtime.types.js';
import { contentTerms } from '../text/terms.js';
import { countTextTokens } from '../text/token-counter.js';
import type { AgentRun, AgentStep, ParamValue, V1Decision, V1Trace, V2Trace } from '../trace.types.js';
import type { AgentTool, AgentTurnFindings, FoundRecord } from './agent-tools.js';

/*
 * What an agent-mode turn answers (docs/agents.md): the reply after the engine's checks (citations that name no
 * passage of this turn removed, the reply's guardrails), cards only from records a search returned, the fallback
 * reply when the loop stopped early, and the v1 or v2 trace with every step.
 */

/** The reply when the loop stops before the model answers (steps, tokens or time ran out; v2 bundles' decline message). */
export const AGENT_FALLBACK = "Sorry, I couldn't finish looking into that just now. Please try again, or ask in another way.";

/** One call as it ran, for the reply and the trace. */
export interface ExecutedStep {
  trace: AgentStep;
  kind: AgentTool['kind'] | null;
  /** The parsed arguments (null when they could not be read). */
  args: Record<string, unknown> | null;
  /** The rules evaluated on the arguments (v1). */
  rules: RuleEval[];
  /** The result as the model read it. */
  result: string;
}

/** How the loop ended: the model's text (null: the fallback is answered), why, and everything it found. */
export interface AgentTurnOutcome {
  text: string | null;
  stop: AgentRun['stop_reason'] | 'no_reply';
  run: AgentRun;
  /** The guardrails' verdict on the end-user message. */
  guard: GuardrailVerdict;
  guardrails: CompiledGuardrail[];
  steps: ExecutedStep[];
  findings: AgentTurnFindings;
  variables: Map<string, ParamValue>;
  /** The sum of every model call's usage; null when no model call was made. */
  usage: TokenUsage | null;
}

export function agentResult(agent: PreparedAgent, build: string, input: TurnInput, o: AgentTurnOutcome): TurnResult {
  const message = input.text ?? '';
  const classifier = agent.v1?.intents ?? agent.v2?.intents;
  const intents = o.guard.passed && classifier ? classifier.classify(message) : [];
  const intent = intents[0]?.name ?? null;

  let run = o.run;
  let text: string;
  let replyGuard: GuardrailVerdict | null = null;
  let citations: Citations = { cited: [], removed: [] };
  if (!o.guard.passed) text = o.guard.message ?? 'I can not help with that.';
  else if (o.text === null) text = fallbackText(agent);
  else {
    text = o.text.trim();
    if (agent.runtime === 'v2') ({ text, ...citations } = checkCitations(text, o.findings));
    const verdict = checkGuardrails(o.guardrails, text);
    if (!verdict.passed) {
      replyGuard = verdict;
      text = verdict.message ?? 'I can not help with that.';
      run = { ...run, stop_reason: 'guardrail', detail: `the reply matched ${verdict.reason}` };
    }
  }
  const answered = o.guard.passed && o.text !== null && !replyGuard;
  const cards = agent.runtime === 'v1' && answered ? cardsFor(text, o.findings) : [];
  const usage = o.usage ?? {
    input_tokens: agent.identityTokens + countTextTokens(message),
    output_tokens: countTextTokens(text),
    cache_read_tokens: 0,
    reasoning_tokens: 0,
  };
  const followups = followupsFor(agent.bundle, intent);
  const facets = facetsOf(o);
  const trace =
    agent.runtime === 'v2'
      ? v2Trace(agent, build, input, o, { text, run, intents, intent, citations, replyGuard, answered })
      : v1Trace(agent, input, o, { text, run, intents, cards, followups, replyGuard });
  return { text, cards, followupSuggestions: followups, trace, usage, facets, intent, runtime: agent.runtime, runtimeBuild: build };
}

function fallbackText(agent: PreparedAgent): string {
  return (agent.runtime === 'v2' ? agent.bundle.knowledge_settings?.decline_message : undefined) ?? AGENT_FALLBACK;
}

interface Citations {
  /** Markers kept, in order of first use. */
  cited: number[];
  /** Markers that named no passage returned in this turn, removed from the reply. */
  removed: number[];
}

/** Keeps `[n]` only when n numbers a passage a `search_knowledge` call of this turn returned; removes the others. */
export function checkCitations(text: string, findings: AgentTurnFindings): Citations & { text: string } {
  const cited: number[] = [];
  const removed: number[] = [];
  const kept = text.replace(/\s?\[(\d{1,4})\]/g, (marker, digits: string) => {
    const n = Number(digits);
    if (n >= 1 && n <= findings.passages.length) {
      if (!cited.includes(n)) cited.push(n);
      return marker;
    }
    if (!removed.includes(n)) removed.push(n);
    return '';
  });
  return { text: kept, cited, removed };
}

/** The catalog records the reply names (by title), else the last search's records; only records a search returned. */
function cardsFor(text: string, findings: AgentTurnFindings): CardDto[] {
  const lower = text.toLowerCase();
  const seen = new Set<string>();
  const named: FoundRecord[] = [];
  for (const found of findings.searches.flat()) {
    const key = `${found.tool.def.code}\u0000${found.record.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const title = found.record[found.tool.def.title_field];
    if (typeof title === 'string' && title.length > 2 && lower.includes(title.toLowerCase())) named.push(found);
  }
  const chosen = named.length ? named : (findings.searches.at(-1) ?? []);
  return chosen.map((f, i) => toCard(f.tool, f.record, i, i === 0));
}

/** Every tool that ran, the rules evaluated on arguments (blocked beats fired beats passed), the values known. */
function facetsOf(o: AgentTurnOutcome): TurnFacets {
  const tools: string[] = [];
  const rules = new Map<string, 'fired' | 'blocked' | 'passed'>();
  const params: Record<string, ParamValue> = Object.fromEntries(o.variables);
  for (const step of o.steps) {
    const ran = step.trace.status !== 'refused';
    if (ran && !tools.includes(step.trace.tool)) tools.push(step.trace.tool);
    for (const e of step.rules) {
      const outcome = !e.triggered ? 'passed' : e.rule.action === 'block' ? 'blocked' : 'fired';
      const before = rules.get(e.rule.code);
      if (!before || outcome === 'blocked' || (outcome === 'fired' && before === 'passed')) rules.set(e.rule.code, outcome);
    }
    if (ran && step.args) {
      for (const [k, v] of Object.entries(step.args)) {
        if (typeof v === 'number' || typeof v === 'boolean') params[k] = v;
        else if (typeof v === 'string') params[k] = v.slice(0, 200);
      }
    }
  }
  return { tools, rules: [...rules].map(([code, outcome]) => ({ code, outcome })), params };
}

// ---------------------------------------------------------------------------------------------------------------

function v1Trace(
  agent: PreparedAgent,
  input: TurnInput,
  o: AgentTurnOutcome,
  r: {
    text: string;
    run: AgentRun;
    intents: Array<{ name: string }>;
    cards: CardDto[];
    followups: string[];
    replyGuard: GuardrailVerdict | null;
  },
): V1Trace {
  const titles = agent.v1?.titles;
  const vars = flattenVariables(input.agentVariables);
  const blocked = !o.guard.passed || r.replyGuard !== null;
  const evaluations = new Map<string, RuleEval[]>();
  for (const step of o.steps) for (const e of step.rules) evaluations.set(e.rule.code, [...(evaluations.get(e.rule.code) ?? []), e]);
  return {
    runtime: 'v1',
    input: { message: input.text ?? '' },
    understanding: { intents: r.intents.map((i) => i.name), guardrails: { passed: o.guard.passed, reason: o.guard.reason } },
    decisions: o.steps.map((s) => stepDecision(s, r.run.provider)),
    computed_parameters: (['static', 'dynamic'] as const).flatMap((scope) =>
      [...vars[scope].keys()].map((code) => ({ code, title: titles?.get(code) ?? code, scope })),
    ),
    response: {
      type: blocked ? 'block' : r.cards.length ? 'answer_with_cards' : 'answer',
      message: r.text,
      suggestions: r.followups,
      question_reason: '',
      asking_for: [],
      block_message: blocked ? r.text : '',
      error: '',
      jsx_widgets: r.cards.map((c) => ({
        name: c.title ?? '',
        category: c.capability ?? '',
        rendered_jsx: c.rendered_jsx,
        is_recommended: c.is_recommended,
        index: c.index,
      })),
    },
    rules_evaluations: [...evaluations].map(([code, evals]) => ({
      code,
      triggered: evals.some((e) => e.triggered),
      reason: evals.map((e) => ({
        passed: e.triggered,
        trigger_type: 'parameter' as const,
        condition: { method: e.method, operation: e.computation },
      })),
    })),
    agent: r.run,
  };
}

function stepDecision(step: ExecutedStep, provider: string): V1Decision {
  const s = step.trace;
  const block = step.rules.find((e) => e.triggered && e.rule.action === 'block');
  return {
    type: 'tool_call',
    tool: s.tool,
    parent_tool: s.parent_tool,
    track_id: s.id,
    status: s.status,
    check_status: s.status === 'completed' ? 'passed' : 'failed',
    trigger: { type: 'always', reasons: [`model call ${s.model_call} asked for it`], matched_objective: '' },
    trigger_type: 'always',
    rule: block
      ? { type: OP_METHOD[block.rule.when.op] ?? block.rule.when.op, action: 'block', reason: block.computation, code: block.rule.code }
      : { type: '', action: '', reason: '', code: '' },
    text: s.arguments,
    fail_reason: s.fail_reason,
    computation: `${step.kind ?? 'unknown tool'} called by the ${provider} model${s.status === 'refused' ? ', refused' : ` in ${s.duration_ms} ms`}`,
    output_param: `${s.tool}.result`,
    output_title: s.output_title,
    qualified: s.status === 'completed',
    matched_branch: s.status === 'completed' ? 'results' : s.status,
  };
}

function v2Trace(
  agent: PreparedAgent,
  build: string,
  input: TurnInput,
  o: AgentTurnOutcome,
  r: {
    text: string;
    run: AgentRun;
    intents: Array<{ name: string; score: number }>;
    intent: string | null;
    citations: Citations;
    replyGuard: GuardrailVerdict | null;
    answered: boolean;
  },
): V2Trace {
  const question = (input.text ?? '').trim();
  const vars = flattenVariables(input.agentVariables);
  const passages = o.findings.passages;
  const byDocument = new Map<string, { title: string; n: number }>();
  for (const p of passages) {
    const entry = byDocument.get(p.passage.documentId) ?? { title: p.passage.title, n: 0 };
    entry.n += 1;
    byDocument.set(p.passage.documentId, entry);
  }
  const cited = r.citations.cited.map((n) => passages[n - 1]!);
  const decline = r.answered ? recognizeDecline(r.text) : null;
  const { removed } = r.citations;
  const searches = o.steps.filter((s) => s.kind === 'search_knowledge' && s.trace.status === 'completed').length;
  return {
    runtime: 'v2',
    build,
    understanding: {
      question,
      keywords: contentTerms(question).map((t) => t.stem),
      context_keywords: [],
      intent: r.intent,
      intents: r.intents.map((i) => ({ name: i.name, score: Math.round(i.score * 1000) / 1000 })),
    },
    learned: (['static', 'dynamic'] as const).flatMap((scope) =>
      [...vars[scope]].map(([key, value]) => ({ source: `agent_variables.${scope}`, key, value })),
    ),
    sources_read: [...byDocument].map(([documentId, d]) => ({ document_id: documentId, title: d.title, passages_considered: d.n })),
    passages_used: cited.map((p) => ({
      passage_id: p.passage.id,
      document_id: p.passage.documentId,
      score: Math.round(p.score * 1000) / 1000,
      text: p.passage.text,
    })),
    citations_used: cited.map((p) => ({
      marker: p.marker,
      document_id: p.passage.documentId,
      title: p.passage.title,
      url: p.passage.url ?? '',
      passage_id: p.passage.id,
      text: p.passage.text,
    })),
    policies: [
      { code: 'guardrails', decision: o.guard.passed && !r.replyGuard ? 'allow' : 'block', detail: r.replyGuard?.reason ?? o.guard.reason },
      {
        code: 'grounded_only',
        decision: 'applied',
        detail: 'citations are kept only when they name a passage search_knowledge returned in this turn',
      },
      { code: 'agent_mode', decision: r.run.stop_reason, detail: r.run.detail },
    ],
    checks: [
      { name: 'guardrails', passed: o.guard.passed, detail: o.guard.reason },
      {
        name: 'citations_map_to_passages',
        passed: removed.length === 0,
        detail: removed.length
          ? `removed ${removed.map((n) => `[${n}]`).join(', ')}: no passage returned in this turn has that number`
          : `${cited.length} citation(s), each names a passage returned in this turn`,
      },
      {
        name: 'answer_is_grounded',
        passed: !r.answered || cited.length > 0 || (decline?.declined ?? false),
        detail: !r.answered
          ? 'no answer was given'
          : cited.length
            ? `the reply cites ${cited.length} of ${passages.length} passage(s) returned`
            : decline?.declined
              ? 'the model said the knowledge base does not answer'
              : 'the reply cites none of the passages returned',
      },
      {
        name: 'reply_guardrails',
        passed: r.replyGuard === null,
        detail: r.replyGuard ? r.replyGuard.reason : 'no guardrail matched the reply',
      },
    ],
    dense_retrieval: null,
    model_decline: decline,
    narrative: [
      `Agent mode: the ${r.run.provider} model made ${r.run.model_calls} call(s) and ${o.steps.length} tool call(s)` +
        `${searches ? `, ${searches} of them knowledge searches returning ${passages.length} passage(s)` : ''}.`,
      r.answered
        ? `Its reply cites ${cited.length} passage(s)${removed.length ? `; ${removed.map((n) => `[${n}]`).join(', ')} named no passage of this turn and were removed` : ''}.`
        : `It gave no answer of its own: ${r.run.detail}.`,
      `Engine build ${build}.`,
    ].join(' '),
    steps: o.steps.map((s) => s.trace),
    agent: r.run,
  };
}
