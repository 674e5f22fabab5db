import type { V2ModelDecline } from '../trace.types.js';

/**
 * What a model provider is told when it words a grounded (v2) reply, and how its "the passages do not answer"
 * is recognised afterwards: the model is asked to answer with one fixed sentence, and the trace records a decline
 * when the reply is that sentence or says the same in other words without citing anything.
 */

/** The sentence the model answers with when the passages do not answer the question. */
export const MODEL_DECLINE_SENTENCE = 'I could not find this in the knowledge base.';

/** The v2 engine's instructions to the model (the numbered sources follow them in the system prompt). */
export const GROUNDED_INSTRUCTIONS =
  'Answer only from the numbered sources below: they are passages of the knowledge base retrieved for this question. ' +
  'After every statement put the marker of the source it comes from, like [1] or [2]. Do not use outside knowledge, ' +
  'even when you know the answer. If the sources do not answer the question, do not use the draft reply: answer with ' +
  `exactly "${MODEL_DECLINE_SENTENCE}" and nothing else.`;

/** Ways models say the material does not answer, in lower case with plain apostrophes. */
const PARAPHRASES = [
  /\b(?:i|we) (?:could not|couldn't|cannot|can't|can not|was unable to|am unable to|did not|didn't|do not|don't) (?:find|see|locate)\b[^.!?]*/,
  /\b(?:the )?(?:provided |given |available )?(?:sources?|passages?|documents?|context|knowledge base|information)(?: provided| given)? (?:do|does|did) not (?:contain|mention|cover|answer|say|include|provide|address|specify|state)\b[^.!?]*/,
  /\bnot (?:covered|mentioned|found|included|addressed|answered) (?:in|by) the (?:provided |given )?(?:sources?|passages?|documents?|context|knowledge base)\b[^.!?]*/,
  /\b(?:none of the|no) (?:sources?|passages?|documents?) (?:covers?|mentions?|answers?|contains?|says?)\b[^.!?]*/,
  /\b(?:there is|there's) no (?:information|mention) (?:about|of|on)\b[^.!?]*/,
];

/** Whether (and how) a model's reply declines to answer. */
export function recognizeDecline(text: string): V2ModelDecline {
  const normalized = normalize(text);
  if (!normalized) return { declined: false, how: null, matched: null };
  const cites = /\[\d{1,3}\]/.test(text);
  if (normalized.includes(normalize(MODEL_DECLINE_SENTENCE))) {
    return { declined: !cites, how: 'sentence', matched: MODEL_DECLINE_SENTENCE };
  }
  for (const pattern of PARAPHRASES) {
    const m = pattern.exec(normalized);
    if (m) return { declined: !cites, how: 'paraphrase', matched: m[0].trim().slice(0, 200) };
  }
  return { declined: false, how: null, matched: null };
}

function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d"*_`]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}
