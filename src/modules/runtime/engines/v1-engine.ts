import type { Bundle } from '../../bundles/bundle.types.js';
import { withSpan } from '../../../telemetry/tracing.js';
import type { CardDto, TurnFacets, TurnInput } from '../runtime.types.js';
import type { ParamValue, V1Response } from '../trace.types.js';
import { followupsFor } from './followups.js';
import { checkGuardrails } from './guardrails.js';
import type { TurnPlan } from './plan.js';
import type { V1Index } from './v1/prepare.js';
import { composeReply, materialFor, toCard } from './v1/reply.js';
import { evaluateRule } from './v1/rules.js';
import { runTool } from './v1/search.js';
import { blockedV1Trace, v1Trace, type V1Decided } from './v1/trace.js';
import {
  buildHttpToolRequest,
  httpToolCards,
  httpToolTrigger,
  interpretHttpResult,
  skippedHttpRun,
  type CompiledHttpTool,
  type HttpCallResult,
  type HttpToolRequest,
  type HttpToolRun,
} from './v1/http-tool.js';
import type { RuleEval } from './v1/rules.js';
import type { ComputedParam } from './variables.js';
import { computeParams, understand } from './v1/understand.js';

/*
 * The v1 decisioning engine, turn by turn: guardrails, understanding (intents, parameters, continuation of
 * the thread's request), tools (v1/search), rules (v1/rules), the reply (v1/reply) and its trace (v1/trace).
 * What it compiles once per revision is in v1/prepare.
 */

export const V1_BUILD = '1.0.0';

/** The I/O of one HTTP tool call (HttpToolsService: signed, SSRF-guarded, bounded); never rejects. */
export type HttpToolCaller = (tool: CompiledHttpTool, request: HttpToolRequest) => Promise<HttpCallResult>;

const NO_HTTP_RUNS: HttpToolRun[] = [];

/** A turn of a bundle without HTTP tools: synchronous, nothing awaited. */
export function planV1(bundle: Bundle, ix: V1Index, input: TurnInput): TurnPlan {
  const u = understandTurn(bundle, ix, input);
  if ('plan' in u) return u.plan;
  const http = ix.httpTools.length ? ix.httpTools.map((tool) => skippedHttpRun(tool, 'HTTP tools need the runtime service')) : NO_HTTP_RUNS;
  return decide(bundle, ix, u, http);
}

/**
 * A turn of a bundle with HTTP tools: understood as usual, then the tools that apply are called at once (in
 * parallel, each bounded by its timeout), then decided with their answers. A rule that blocks or asks first means
 * no call is made.
 */
export async function planV1WithHttp(bundle: Bundle, ix: V1Index, input: TurnInput, call: HttpToolCaller): Promise<TurnPlan> {
  const u = understandTurn(bundle, ix, input);
  if ('plan' in u) return u.plan;
  const stopped = u.block ? `rule ${u.block.rule.code} blocks the turn` : u.ask ? `rule ${u.ask.rule.code} asks first` : null;
  const http = await Promise.all(
    ix.httpTools.map(async (tool) => {
      if (stopped) return skippedHttpRun(tool, `not called: ${stopped}`);
      const trigger = httpToolTrigger(tool, u.intent, u.paramMap);
      if (!trigger.run) return skippedHttpRun(tool, trigger.reason);
      const request = buildHttpToolRequest(tool, u.paramMap);
      return interpretHttpResult(tool, trigger.reason, request, u.paramMap, await call(tool, request));
    }),
  );
  return decide(bundle, ix, u, http);
}

interface Understood {
  message: string;
  imageUrl?: string;
  guardReason: string;
  intents: string[];
  intent: string | null;
  queryText: string;
  carried: boolean;
  thread: string[];
  params: ComputedParam[];
  paramMap: Map<string, ParamValue>;
  evals: RuleEval[];
  block?: RuleEval;
  ask?: RuleEval;
  responds: RuleEval[];
}

/** Guardrails, understanding, parameters and rules: everything that does not depend on a tool. */
function understandTurn(bundle: Bundle, ix: V1Index, input: TurnInput): Understood | { plan: TurnPlan } {
  const message = input.text ?? '';
  const guard = withSpan('engine.guardrails', () => checkGuardrails(ix.guardrails, message));
  if (!guard.passed) return { plan: blockedPlan(bundle, message, guard.reason, guard.message ?? 'I can not help with that.') };

  const { intents, ownValues, queryText, carriedValues, carried, thread } = understand(ix, input, message);
  const intent = intents[0]?.name ?? null;
  const params = computeParams(ix, input.agentVariables, carriedValues, ownValues);
  const paramMap = new Map(params.map((p) => [p.code, p.value]));

  // Rules
  const evals = withSpan('engine.rules', () => ix.rules.map((rule) => evaluateRule(rule, paramMap)));
  const fired = evals.filter((e) => e.triggered);
  const block = fired.find((e) => e.rule.action === 'block');
  const ask = block ? undefined : fired.find((e) => e.rule.action === 'ask');
  // A `handoff` rule answers like `respond`; the turn pipeline hands the thread over (docs/handoff.md).
  const responds = fired.filter((e) => e.rule.action === 'respond' || e.rule.action === 'handoff');
  return {
    message,
    imageUrl: input.imageUrl,
    guardReason: guard.reason,
    intents: intents.map((i) => i.name),
    intent,
    queryText,
    carried,
    thread,
    params,
    paramMap,
    evals,
    block,
    ask,
    responds,
  };
}

function decide(bundle: Bundle, ix: V1Index, u: Understood, http: HttpToolRun[]): TurnPlan {
  const { message, intent, queryText, params, paramMap, evals, block, ask, responds } = u;

  // Tools
  const runs = withSpan('engine.tools', () => ix.tools.map((tool) => runTool(tool, intent, queryText, paramMap, u.carried, u.thread)));

  // Cards from every tool that ran (none when a rule blocks or asks first).
  const cards: CardDto[] = [];
  if (!block && !ask) {
    for (const run of runs) {
      run.hits.forEach(({ record }) => {
        cards.push(toCard(run.tool, record, cards.length, cards.length === 0));
      });
    }
    for (const run of http) if (run.ok) cards.push(...httpToolCards(run, cards.length));
  }

  let draft: string;
  let responseType: V1Response['type'];
  if (block) {
    draft = block.rule.message;
    responseType = 'block';
  } else if (ask) {
    draft = ask.rule.message;
    responseType = 'question';
  } else {
    draft = withSpan('engine.compose', () =>
      composeReply(
        bundle,
        intent,
        runs,
        responds.map((e) => e.rule.message),
        queryText,
        u.imageUrl,
        http.length ? http.filter((r) => r.ran).map((r) => r.text) : undefined,
      ),
    );
    responseType = cards.length ? 'answer_with_cards' : 'answer';
  }

  const followups = followupsFor(bundle, intent);
  const ranTools = runs.filter((r) => r.ran).map((r) => r.tool.def.code);
  if (http.length) for (const r of http) if (r.ran) ranTools.push(r.tool.def.code);
  const facets: TurnFacets = {
    tools: ranTools,
    rules: evals.map((e) => ({ code: e.rule.code, outcome: !e.triggered ? 'passed' : e.rule.action === 'block' ? 'blocked' : 'fired' })),
    params: Object.fromEntries(params.map((p) => [p.code, p.value])),
  };

  const { sources, facts } = materialFor(
    cards,
    intent,
    params,
    runs,
    responds.map((e) => e.rule),
  );
  for (const r of http) {
    if (!r.ran) continue;
    facts.push(
      r.ok
        ? `Tool ${r.tool.def.code} called the operator's service; tell the user: ${r.text}`
        : `Tool ${r.tool.def.code} could not reach the operator's service (${r.call.failure_reason}); tell the user: ${r.text}`,
    );
  }
  const decided: V1Decided = {
    message,
    intents: u.intents,
    intent,
    guardReason: u.guardReason,
    runs,
    http,
    evals,
    params,
    responseType,
    followups,
    cards,
    ask,
    block,
  };

  return {
    runtime: 'v1',
    build: V1_BUILD,
    draft,
    fixed: Boolean(block || ask),
    instructions:
      'Write a short, friendly reply to the user from the facts and catalog results below. Mention only products listed ' +
      'in the results, with their real names and prices; never invent products, prices or policies. Include every rule message verbatim.',
    sources,
    facts,
    cards,
    intent,
    followups,
    facets,
    finish: (text) => v1Trace(decided, ix, text),
  };
}

function blockedPlan(bundle: Bundle, input: string, reason: string, message: string): TurnPlan {
  return {
    runtime: 'v1',
    build: V1_BUILD,
    draft: message,
    fixed: true,
    instructions: '',
    sources: [],
    facts: [],
    cards: [],
    intent: null,
    followups: bundle.followups?.default ?? [],
    facets: { tools: [], rules: [], params: {} },
    finish: (text) => blockedV1Trace(input, reason, message, bundle.followups?.default ?? [], text),
  };
}
