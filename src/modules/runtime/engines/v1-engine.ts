import type { Bundle } from '../../bundles/bundle.types.js';
import { withSpan } from '../../../telemetry/tracing.js';
import type { CardDto, TurnFacets, TurnInput } from '../runtime.types.js';
import type { V1Response } from '../trace.types.js';
import { followupsFor } from './followups.js';
import { checkGuardrails } from './guardrails.js';
import type { TurnPlan } from './plan.js';
import type { V1Index } from './v1/prepare.js';
import { composeReply, materialFor, toCard } from './v1/reply.js';
import { evaluateRule } from './v1/rules.js';
import { runTool } from './v1/search.js';
import { blockedV1Trace, v1Trace, type V1Decided } from './v1/trace.js';
import { computeParams, understand } from './v1/understand.js';

/*
 * The v1 decisioning engine, turn by turn: guardrails, understanding (intents, parameters, continuation of
 * the thread's request), tools (v1/search), rules (v1/rules), the reply (v1/reply) and its trace (v1/trace).
 * What it compiles once per revision is in v1/prepare.
 */

export const V1_BUILD = '1.0.0';

export function planV1(bundle: Bundle, ix: V1Index, input: TurnInput): TurnPlan {
  const message = input.text ?? '';
  const guard = withSpan('engine.guardrails', () => checkGuardrails(ix.guardrails, message));
  if (!guard.passed) return blockedPlan(bundle, message, guard.reason, guard.message ?? 'I can not help with that.');

  const { intents, ownValues, queryText, carriedValues, carried } = understand(ix, input, message);
  const intent = intents[0]?.name ?? null;
  const params = computeParams(ix, input.agentVariables, carriedValues, ownValues);
  const paramMap = new Map(params.map((p) => [p.code, p.value]));

  // Tools
  const runs = withSpan('engine.tools', () => ix.tools.map((tool) => runTool(tool, intent, queryText, paramMap, carried)));

  // Rules
  const evals = withSpan('engine.rules', () => ix.rules.map((rule) => evaluateRule(rule, paramMap)));
  const fired = evals.filter((e) => e.triggered);
  const block = fired.find((e) => e.rule.action === 'block');
  const ask = block ? undefined : fired.find((e) => e.rule.action === 'ask');
  const responds = fired.filter((e) => e.rule.action === 'respond');

  // Cards from every tool that ran (none when a rule blocks or asks first).
  const cards: CardDto[] = [];
  if (!block && !ask) {
    for (const run of runs) {
      run.hits.forEach(({ record }) => {
        cards.push(toCard(run.tool, record, cards.length, cards.length === 0));
      });
    }
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
        input.imageUrl,
      ),
    );
    responseType = cards.length ? 'answer_with_cards' : 'answer';
  }

  const followups = followupsFor(bundle, intent);
  const facets: TurnFacets = {
    tools: runs.filter((r) => r.ran).map((r) => r.tool.def.code),
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
  const decided: V1Decided = {
    message,
    intents: intents.map((i) => i.name),
    intent,
    guardReason: guard.reason,
    runs,
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
