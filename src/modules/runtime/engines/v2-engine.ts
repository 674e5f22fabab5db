import type { Bundle, KnowledgeDocument } from '../../bundles/bundle.types.js';
import { withSpan } from '../../../telemetry/tracing.js';
import type { TurnFacets, TurnInput } from '../runtime.types.js';
import { questionWords, type QueryWord } from '../knowledge/analyzer.js';
import {
  answerability,
  answerableCheck,
  declineNarrative,
  DEFAULT_MIN_CONFIDENCE,
  type Answerability,
} from '../knowledge/answerability.js';
import { KnowledgeRetriever } from '../knowledge/retriever.js';
import { contentTerms, keywords, sentences, words } from '../text/terms.js';
import { checkGuardrails, compileGuardrails, type CompiledGuardrail } from './guardrails.js';
import { IntentClassifier } from './intent-classifier.js';
import type { MaterialSource, TurnPlan } from './plan.js';
import type { ParamValue, V2Trace } from '../trace.types.js';
import { followupsFor } from './followups.js';
import { flattenVariables } from './variables.js';
import type { DenseRanking } from '../knowledge/dense-index.js';
import { applyDenseRanking, denseNarrative } from '../knowledge/dense-turn.js';
import { GROUNDED_INSTRUCTIONS, recognizeDecline } from '../providers/grounding.js';

/**
 * Builds of the grounded engine a send may pin with `runtime_version`. A pin names a major, a minor or an
 * exact build; the newest build matching it answers. Unknown pins are 422 `runtime_version`.
 *  - 2.0.0: single-passage answers (the best passage only, one citation).
 *  - 2.1.0: multi-passage synthesis (up to 3 passages from the best sources) and short follow-up
 *    questions completed with the previous question's keywords.
 */
export const V2_BUILDS = ['2.0.0', '2.1.0'] as const;
export type V2Build = (typeof V2_BUILDS)[number];
export const V2_LATEST: V2Build = '2.1.0';

export function resolveV2Build(pin: string | undefined): V2Build | null {
  if (pin === undefined || pin === '') return V2_LATEST;
  if (!/^\d+(\.\d+){0,2}$/.test(pin)) return null;
  const want = pin.split('.').map(Number);
  const matching = V2_BUILDS.filter((b) => {
    const parts = b.split('.').map(Number);
    return want.every((n, i) => parts[i] === n);
  });
  return matching.length ? matching[matching.length - 1]! : null;
}

export interface Passage {
  id: string;
  documentId: string;
  title: string;
  url?: string;
  text: string;
  sentences: Array<{ text: string; terms: Set<string> }>;
}

export interface V2Index {
  guardrails: CompiledGuardrail[];
  intents: IntentClassifier;
  passages: Passage[];
  retriever: KnowledgeRetriever;
  documents: Map<string, KnowledgeDocument>;
  /** Inverse document frequency of each term over passages (sentence scoring). */
  idf: Map<string, number>;
  /**
   * The passage that answered a question in its thread (its best lexical passage; null: none), by the question
   * and its thread words: a follow-up's page of the thread without searching the previous question again. A hit
   * equals the recomputation (answeredPassage), so the cache changes no answer.
   */
  answered: Map<string, number | null>;
}

const MIN_WORDS = 60;
const MAX_WORDS = 120;

/** Splits a document into passages of about 60–120 words on sentence boundaries, preferring paragraph ends. */
export function chunkDocument(doc: KnowledgeDocument): Passage[] {
  const out: Passage[] = [];
  let current: string[] = [];
  let count = 0;
  const flush = () => {
    if (!current.length) return;
    const text = current.join(' ');
    const prev = out[out.length - 1];
    if (count < 20 && prev) {
      prev.text = `${prev.text} ${text}`;
      prev.sentences.push(...current.map(toSentence));
    } else {
      out.push({
        id: `${doc.id}#p${out.length + 1}`,
        documentId: doc.id,
        title: doc.title,
        url: doc.url,
        text,
        sentences: current.map(toSentence),
      });
    }
    current = [];
    count = 0;
  };
  const paragraphs = (doc.text ?? '').split(/\n\s*\n/);
  for (const paragraph of paragraphs) {
    const list = sentences(paragraph.replace(/\s+/g, ' '));
    for (const s of list) {
      const n = words(s).length;
      if (count >= MIN_WORDS && count + n > MAX_WORDS) flush();
      current.push(s);
      count += n;
      if (count >= MAX_WORDS) flush();
    }
    if (count >= MIN_WORDS) flush();
  }
  flush();
  return out;
}

function toSentence(text: string): { text: string; terms: Set<string> } {
  return { text, terms: new Set(keywords(text)) };
}

export function prepareV2(bundle: Bundle): V2Index {
  const documents = new Map<string, KnowledgeDocument>();
  for (const d of bundle.knowledge ?? []) if (d && typeof d.id === 'string' && !documents.has(d.id)) documents.set(d.id, d);
  const passages = [...documents.values()].flatMap(chunkDocument);
  const retriever = new KnowledgeRetriever([...documents.values()], passages);
  const df = new Map<string, number>();
  for (const p of passages) {
    const seen = new Set<string>();
    for (const s of p.sentences) for (const t of s.terms) seen.add(t);
    for (const t of seen) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const idf = new Map<string, number>();
  for (const [t, n] of df) idf.set(t, Math.log(1 + passages.length / n));
  return {
    guardrails: compileGuardrails(bundle.guardrails),
    intents: new IntentClassifier(bundle.intents),
    passages,
    retriever,
    documents,
    idf,
    answered: new Map(),
  };
}

interface Ranked {
  passage: Passage;
  score: number;
  coverage: number;
  /** Question words the passage does not cover (lexical ranking only). */
  uncovered?: string[];
}

const NOT_FOUND = 'I could not find this in the knowledge base.';

/** `dense`: the question's ranking by the bundle's embeddings model (RuntimeService), fused with the lexical one. */
export function planV2(bundle: Bundle, ix: V2Index, input: TurnInput, build: V2Build, dense?: DenseRanking): TurnPlan {
  const question = (input.text ?? '').trim();
  const guard = withSpan('engine.guardrails', () => checkGuardrails(ix.guardrails, question));
  const intents = guard.passed ? withSpan('engine.intent', () => ix.intents.classify(question)) : [];
  const intent = intents[0]?.name ?? null;
  const vars = flattenVariables(input.agentVariables);
  const learned: V2Trace['learned'] = [];
  const params: Record<string, ParamValue> = {};
  for (const [scope, map] of [
    ['static', vars.static],
    ['dynamic', vars.dynamic],
  ] as const) {
    for (const [key, value] of map) {
      params[key] = value;
      learned.push({ source: `agent_variables.${scope}`, key, value });
    }
  }
  const multi = build !== '2.0.0';
  const own = contentTerms(question);
  const ownKeywords = own.map((t) => t.stem);
  let context: Array<{ word: string; stem: string }> = [];
  let threadWords: QueryWord[] = [];
  /** The page that answered the thread's previous question: a follow-up stays on it unless another answers better. */
  let threadPassage: number | undefined;
  if (multi && guard.passed) {
    const thread = threadContext(question, input.history ?? []);
    threadWords = thread.words;
    context = threadWords.map((w) => ({ word: w.word, stem: w.stem }));
    if (context.length) {
      learned.push({ source: 'history', key: 'previous_question', value: thread.subject[0]! });
      const previous = thread.subject[0]!;
      threadPassage = withSpan('engine.retrieval', () => answeredPassage(ix, previous, historyBefore(input.history ?? [], previous)));
    }
  }
  const contextKeywords = context.map((t) => t.stem);
  const queryTerms = [...ownKeywords, ...contextKeywords];

  // Retrieval (knowledge/retriever.ts): BM25F over documents with passage scoring, proximity and expansion;
  // then the decision to answer or decline (knowledge/answerability.ts).
  let ranked: Ranked[] = [];
  const considered = new Map<string, number>();
  const threshold = bundle.knowledge_settings?.min_confidence ?? DEFAULT_MIN_CONFIDENCE;
  const decision: Answerability | null =
    guard.passed && queryTerms.length
      ? withSpan('engine.retrieval', () => {
          const result = ix.retriever.search(questionWords(question), threadWords, undefined, threadPassage);
          if (multi) remember(ix, answeredKey(question, threadWords), result.passages[0]?.index);
          for (const r of result.passages) {
            const passage = ix.passages[r.index]!;
            considered.set(passage.documentId, (considered.get(passage.documentId) ?? 0) + 1);
            ranked.push({ passage, score: r.score, coverage: r.coverage, uncovered: r.uncovered });
          }
          return answerability(result, (i) => ix.passages[i]!.documentId, threshold);
        })
      : null;
  // Dense retrieval (docs/knowledge.md): the fused order replaces the lexical one; a failure leaves it and is traced.
  const fusion =
    guard.passed && question ? applyDenseRanking(ranked, dense, ix.passages, (passage) => ({ passage, score: 0, coverage: 0 })) : null;
  if (fusion) ranked = fusion.ranked;
  for (const r of ranked) if (!considered.has(r.passage.documentId)) considered.set(r.passage.documentId, 1);
  // A passage the embeddings place above the bundle's min_similarity answers what the question's words alone did not
  // cover (a paraphrase), so the lexical decline does not overrule it.
  const denseVouches =
    fusion?.trace?.status === 'used' &&
    fusion.trace.fused.some((f) => f.similarity !== null && f.similarity >= (fusion.trace?.min_similarity ?? 0));
  const declined = decision !== null && !decision.answerable && !denseVouches;
  // A decline suggests the nearest topics the knowledge base does cover (the best-ranked sections' titles).
  const nearest = declined ? [...new Set(ranked.map((r) => r.passage.title))].slice(0, 3) : [];
  const used = declined ? [] : answerPassages(ranked, multi ? 3 : 1);

  // Extractive answer: the best sentences of the passages used, each followed by its citation marker.
  const sources: MaterialSource[] = used.map((r, i) => ({
    key: r.passage.id,
    marker: i + 1,
    label: r.passage.title,
    text: r.passage.text,
  }));
  const qset = new Set(queryTerms);
  const pieces: string[] = [];
  withSpan('engine.compose', () =>
    used.forEach((r, i) => {
      const scored = r.passage.sentences
        .map((s, pos) => {
          let score = 0;
          for (const t of s.terms) if (qset.has(t)) score += 1 + (ix.idf.get(t) ?? 0);
          return { s, pos, score };
        })
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score || a.pos - b.pos);
      const take = scored.slice(0, i === 0 ? 2 : 1).sort((a, b) => a.pos - b.pos);
      if (!take.length && r.passage.sentences[0]) take.push({ s: r.passage.sentences[0], pos: 0, score: 0 });
      for (const t of take) pieces.push(withMarker(t.s.text, i + 1));
    }),
  );

  let draft: string;
  let fixed = false;
  if (!guard.passed) {
    draft = guard.message ?? 'I can not help with that.';
    fixed = true;
  } else if (declined || !pieces.length) {
    // A decline names the nearest covered topics; with nothing near, the first topics of the knowledge base.
    const titles = nearest.length ? nearest : [...ix.documents.values()].slice(0, 3).map((d) => d.title);
    const custom = bundle.knowledge_settings?.decline_message;
    draft = !question
      ? `Please ask me a question${titles.length ? ` about ${listPhrase(titles)}` : ''}.`
      : (custom ??
        `${NOT_FOUND}${titles.length ? ` ${nearest.length ? 'The nearest topics I have are' : 'I can answer questions about'} ${listPhrase(titles)}.` : ''}`);
    fixed = true;
  } else {
    draft = pieces.join(' ');
  }

  const followups = declined && nearest.length ? nearest : followupsFor(bundle, intent);
  const facets: TurnFacets = { tools: [], rules: [], params };
  const facts = learned.filter((l) => l.source !== 'history').map((l) => `${l.key} = ${String(l.value)}`);

  return {
    runtime: 'v2',
    build,
    draft,
    fixed,
    instructions: GROUNDED_INSTRUCTIONS,
    sources,
    facts,
    cards: [],
    intent,
    followups,
    facets,
    finish: (text, provider): V2Trace => {
      const cited: number[] = [];
      const unknown: number[] = [];
      for (const m of text.matchAll(/\[(\d{1,3})\]/g)) {
        const n = Number(m[1]);
        if (n >= 1 && n <= used.length) {
          if (!cited.includes(n)) cited.push(n);
        } else if (!unknown.includes(n)) unknown.push(n);
      }
      const citations = cited.map((n) => {
        const r = used[n - 1]!;
        return {
          marker: n,
          document_id: r.passage.documentId,
          title: r.passage.title,
          url: r.passage.url ?? '',
          passage_id: r.passage.id,
          text: r.passage.text,
        };
      });
      const passagesUsed = cited.map((n) => {
        const r = used[n - 1]!;
        return { passage_id: r.passage.id, document_id: r.passage.documentId, score: round(r.score), text: r.passage.text };
      });
      // A model provider's "the passages do not answer" is a decline (docs/knowledge.md), not an uncited answer.
      const modelDecline = provider === 'builtin' ? null : recognizeDecline(text);
      const answered = guard.passed && used.length > 0 && !modelDecline?.declined;
      const checks = [
        { name: 'guardrails', passed: guard.passed, detail: guard.reason },
        {
          name: 'citations_map_to_passages',
          passed: unknown.length === 0,
          detail: unknown.length
            ? `markers ${unknown.map((n) => `[${n}]`).join(', ')} match no passage used`
            : `${citations.length} citation(s), each maps to a passage used`,
        },
        {
          name: 'answer_is_grounded',
          passed: !answered || cited.length > 0,
          detail: modelDecline?.declined
            ? 'the model said the passages do not answer the question, and cited nothing'
            : !answered
              ? 'no answer given without sources'
              : cited.length
                ? `the reply cites ${cited.length} of ${used.length} passage(s) offered`
                : 'the reply cites none of the passages offered',
        },
        answerableCheck(decision ?? answerability({ terms: [], passages: [] }, () => '', threshold), decision !== null),
      ];
      const policies = [
        { code: 'guardrails', decision: guard.passed ? 'allow' : 'block', detail: guard.reason },
        { code: 'grounded_only', decision: 'applied', detail: 'replies use only retrieved knowledge passages' },
        {
          code: 'no_answer_without_sources',
          decision: guard.passed && !used.length ? 'triggered' : 'not_needed',
          detail:
            guard.passed && !used.length
              ? declined
                ? 'the best passage does not cover enough of the question'
                : 'no passage was relevant enough'
              : '',
        },
        { code: 'multi_passage', decision: multi ? 'enabled' : 'disabled', detail: `build ${build}` },
        {
          code: 'history_context',
          decision: contextKeywords.length ? 'used' : 'not_needed',
          detail: contextKeywords.length ? `added ${contextKeywords.join(', ')}` : '',
        },
      ];
      return {
        runtime: 'v2',
        build,
        understanding: {
          question,
          keywords: ownKeywords,
          context_keywords: contextKeywords,
          intent,
          intents: intents.map((i) => ({ name: i.name, score: round(i.score) })),
        },
        learned,
        sources_read: [...considered.entries()].map(([documentId, n]) => ({
          document_id: documentId,
          title: ix.documents.get(documentId)?.title ?? '',
          passages_considered: n,
        })),
        passages_used: passagesUsed,
        citations_used: citations,
        policies,
        checks,
        dense_retrieval: fusion?.trace ?? null,
        model_decline: modelDecline,
        narrative: narrative({
          question,
          guard: guard.passed,
          guardReason: guard.reason,
          considered,
          ranked,
          used,
          cited,
          provider,
          build,
          contextKeywords: context.map((t) => t.word),
          decline: declined && decision ? decision : null,
          dense: denseNarrative(fusion?.trace ?? null),
          modelDeclined: modelDecline?.declined ?? false,
        }),
      };
    },
  };
}

/** Share of the best passage's score another passage needs to join the answer (same page, or another page). */
const SAME_PAGE_SHARE = 0.5;
const OTHER_PAGE_SHARE = 0.7;

/**
 * The passages an answer is written from: the best one, then another passage only when it covers a question word
 * the ones before do not and scores close to the best (half of it on the same page, 70 % on another page). A
 * passage that merely shares a word with the question is not cited beside the one that answers it.
 */
function answerPassages(ranked: Ranked[], max: number): Ranked[] {
  const best = ranked[0];
  if (!best) return [];
  const out = [best];
  const missing = new Set(best.uncovered ?? []);
  for (const r of ranked.slice(1)) {
    if (out.length >= max || !missing.size) break;
    const share = r.passage.documentId === best.passage.documentId ? SAME_PAGE_SHARE : OTHER_PAGE_SHARE;
    const adds = r.uncovered ? [...missing].filter((w) => !r.uncovered!.includes(w)) : [];
    if (r.score < best.score * share || !adds.length) continue;
    out.push(r);
    for (const w of adds) missing.delete(w);
  }
  return out;
}

/**
 * Words that point back at what the thread was about ("is *it* free?", "what about *that*?", "and for how long?"):
 * a question using one, or too short to name a subject (two content words or fewer), is read in the thread's
 * context.
 */
const ANAPHORA = new Set(
  "it its it's that this these those they them their there then one ones he she him her his same also too else".split(' '),
);
const CONTINUATION = /^\s*(and|but|also|so|or|what about|how about|what if|and if|ok(ay)?|then)\b/i;
/** A question, by its mark or its first word (a bare "thanks" in a thread is not a question about its subject). */
const ASKS =
  /\?\s*$|^\s*(what|which|who|whom|whose|where|when|why|how|is|are|was|were|do|does|did|can|could|will|would|should|shall|may|must|have|has)\b/i;

function dependsOnThread(question: string, contentWords: number): boolean {
  if (contentWords <= 2 || CONTINUATION.test(question)) return true;
  return words(question).some((w) => ANAPHORA.has(w));
}

/**
 * The words a question borrows from its thread (none when it names its own subject) and the thread's subject. A
 * question whose words are all function words ("what ID do I need?": "id" reads as "I'd") can only be about the
 * thread's subject.
 */
function threadContext(question: string, history: TurnInput['history']): { words: QueryWord[]; subject: string[] } {
  const own = contentTerms(question).length;
  const bare = own === 0 && ASKS.test(question);
  if (!bare && !(own > 0 && dependsOnThread(question, own))) return { words: [], subject: [] };
  const subject = threadSubject(history, question);
  if (!subject.length) return { words: [], subject };
  const asked = new Set(questionWords(question).map((w) => w.stem));
  const words = questionWords(subject.join(' '))
    .filter((w) => !asked.has(w.stem) && !w.of)
    .slice(0, 6);
  return { words, subject };
}

/** The thread before the last time the end user asked `question`. */
function historyBefore(history: TurnInput['history'], question: string): TurnInput['history'] {
  for (let i = history.length - 1; i >= 0; i--) {
    if (history[i]!.role === 'user' && history[i]!.text.trim() === question) return history.slice(0, i);
  }
  return [];
}

const answeredKey = (question: string, context: QueryWord[]) => `${question}\u0000${context.map((w) => w.stem).join(' ')}`;
const ANSWERED_MAX = 2048;

function remember(ix: V2Index, key: string, passage: number | undefined): void {
  if (ix.answered.size >= ANSWERED_MAX && !ix.answered.has(key)) ix.answered.delete(ix.answered.keys().next().value!);
  ix.answered.set(key, passage ?? null);
}

/**
 * The passage that answered `question` when it was asked after `history` (the engine is deterministic: the same
 * search, in its own thread), from the revision's memo when that turn ran here. Each step back shortens the
 * history, so a chain of follow-ups ends.
 */
function answeredPassage(ix: V2Index, question: string, history: TurnInput['history']): number | undefined {
  const thread = threadContext(question, history);
  const key = answeredKey(question, thread.words);
  const known = ix.answered.get(key);
  if (known !== undefined) return known ?? undefined;
  const previous = thread.words.length ? answeredPassage(ix, thread.subject[0]!, historyBefore(history, thread.subject[0]!)) : undefined;
  const top = ix.retriever.search(questionWords(question), thread.words, 1, previous).passages[0]?.index;
  remember(ix, key, top);
  return top;
}

/**
 * The thread's subject: the end user's previous question and, while that one itself depended on the thread, the
 * one before it (at most three), newest first.
 */
function threadSubject(history: TurnInput['history'], question: string): string[] {
  const asked = history.filter((h) => h.role === 'user' && h.text.trim() && h.text.trim() !== question).map((h) => h.text.trim());
  const out: string[] = [];
  for (let i = asked.length - 1; i >= 0 && out.length < 3; i--) {
    out.push(asked[i]!);
    if (!dependsOnThread(asked[i]!, contentTerms(asked[i]!).length)) break;
  }
  return out;
}

/** `Text [1].` — the marker goes before the final punctuation (found by scanning back: linear, no regex). */
function withMarker(sentence: string, marker: number): string {
  let end = sentence.length;
  while (end > 0 && '.!?'.includes(sentence[end - 1]!)) end -= 1;
  return end < sentence.length ? `${sentence.slice(0, end)} [${marker}]${sentence.slice(end)}` : `${sentence} [${marker}]`;
}

function listPhrase(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function narrative(x: {
  question: string;
  guard: boolean;
  guardReason: string;
  considered: Map<string, number>;
  ranked: Ranked[];
  used: Ranked[];
  cited: number[];
  provider: string;
  build: string;
  contextKeywords: string[];
  decline: Answerability | null;
  dense: string;
  modelDeclined: boolean;
}): string {
  if (!x.guard) {
    return `The question was stopped by a guardrail (${x.guardReason}), so no knowledge was searched and the guardrail's message was returned.`;
  }
  if (!x.question) return 'There was no question to answer, so the engine asked for one.';
  const parts = [
    `I searched the knowledge base for "${x.question}"${x.contextKeywords.length ? `, adding ${x.contextKeywords.join(', ')} from the previous question` : ''}.`,
  ];
  const docs = x.considered.size;
  parts.push(
    docs ? `${docs} document(s) had matching passages; ${x.ranked.length} passage(s) were relevant enough.` : 'No document matched.',
  );
  if (x.dense) parts.push(x.dense);
  if (x.decline) parts.push(declineNarrative(x.decline));
  else if (!x.used.length) parts.push('Because nothing relevant was found, I said so instead of guessing.');
  else if (x.modelDeclined) {
    parts.push(`The ${x.provider} model said the passages do not answer the question, so the reply cites nothing.`);
  } else {
    const titles = [...new Set(x.used.map((u) => u.passage.title))];
    parts.push(
      `I used ${x.used.length} passage(s) from ${listPhrase(titles.map((t) => `"${t}"`))}, wrote the reply ${x.provider === 'builtin' ? 'from their best-matching sentences' : `with the ${x.provider} model`}, and cited ${x.cited.length} of them.`,
    );
  }
  parts.push(`Engine build ${x.build}.`);
  return parts.join(' ');
}
