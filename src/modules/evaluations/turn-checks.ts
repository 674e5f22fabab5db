import type { TurnResult } from '../runtime/runtime.types.js';
import { replyDeclined } from '../runtime/reply-declined.js';
import type { Trace } from '../runtime/trace.types.js';

/** What a test case expects of one reply (the stored form of TurnExpectationDto). */
export interface TurnExpectation {
  contains?: string[];
  not_contains?: string[];
  cites?: string[];
  cards?: string[];
  declines?: boolean;
  tools?: string[];
  handoff?: boolean;
}

/** One turn of a stored test case. */
export interface CaseTurn {
  text: string;
  agent_variables?: { static?: Record<string, unknown>; dynamic?: Record<string, unknown> };
  expect: TurnExpectation;
}

/** What a reply did, as the checks read it (from an engine result, or from a recorded turn). */
export interface ReplyFacts {
  text: string;
  cited: string[];
  cards: string[];
  declined: boolean;
  tools: string[];
  handedOff: boolean;
}

/** The knowledge documents a reply cited, first citation first, without repeats. */
export function citedDocuments(trace: Trace): string[] {
  return trace.runtime === 'v2' ? [...new Set(trace.citations_used.map((c) => c.document_id))] : [];
}

/** The tools a v1 turn ran (a recorded turn keeps them in its trace's decisions). */
function tracedTools(trace: Trace): string[] {
  if (trace.runtime !== 'v1') return [];
  return [...new Set(trace.decisions.filter((d) => d.type === 'tool_call' && d.status !== 'skipped').map((d) => d.tool))];
}

/** The record ids of a reply's cards. */
function cardRecords(cards: Array<{ instance?: string }>): string[] {
  return cards.flatMap((card) => (card.instance ? [card.instance] : []));
}

/**
 * The facts of an engine's reply. No engine hands a thread off on this service yet (human handoff, issue 31, adds
 * it): until a result can say so, `handedOff` is false and a `handoff: true` expectation fails with that reason.
 */
export function factsOfResult(result: TurnResult): ReplyFacts {
  return {
    text: result.text,
    cited: citedDocuments(result.trace),
    cards: cardRecords(result.cards),
    declined: replyDeclined(result.trace),
    tools: result.facets.tools,
    handedOff: false,
  };
}

/** Expectations that hold for a recorded reply ("save as test case"): what it cited, showed, ran, and whether it declined. */
export function expectationOfRecorded(trace: Trace, cards: Array<{ instance?: string }>): TurnExpectation {
  const expectation: TurnExpectation = { declines: replyDeclined(trace) };
  const cited = citedDocuments(trace);
  if (cited.length > 0) expectation.cites = cited;
  const records = cardRecords(cards);
  if (records.length > 0) expectation.cards = records;
  const tools = tracedTools(trace);
  if (tools.length > 0) expectation.tools = tools;
  return expectation;
}

const includes = (text: string, phrase: string) => text.toLocaleLowerCase().includes(phrase.toLocaleLowerCase());
const list = (values: string[]) => (values.length > 0 ? values.join(', ') : 'nothing');

/** The reasons a reply fails its expectation, in the expectation's field order; empty when it passes. */
export function failures(expect: TurnExpectation, reply: ReplyFacts): string[] {
  const reasons: string[] = [];
  for (const phrase of expect.contains ?? []) {
    if (!includes(reply.text, phrase)) reasons.push(`contains: the reply does not contain "${phrase}"`);
  }
  for (const phrase of expect.not_contains ?? []) {
    if (includes(reply.text, phrase)) reasons.push(`not_contains: the reply contains "${phrase}"`);
  }
  for (const document of expect.cites ?? []) {
    if (!reply.cited.includes(document)) reasons.push(`cites: document "${document}" is not cited (cited: ${list(reply.cited)})`);
  }
  for (const record of expect.cards ?? []) {
    if (!reply.cards.includes(record)) reasons.push(`cards: record "${record}" is not shown (shown: ${list(reply.cards)})`);
  }
  if (expect.declines !== undefined && expect.declines !== reply.declined) {
    reasons.push(expect.declines ? 'declines: the reply answered instead of declining' : 'declines: the reply declined');
  }
  for (const tool of expect.tools ?? []) {
    if (!reply.tools.includes(tool)) reasons.push(`tools: tool "${tool}" did not run (ran: ${list(reply.tools)})`);
  }
  if (expect.handoff !== undefined && expect.handoff !== reply.handedOff) {
    reasons.push(expect.handoff ? 'handoff: the turn did not hand the thread off' : 'handoff: the turn handed the thread off');
  }
  return reasons;
}
