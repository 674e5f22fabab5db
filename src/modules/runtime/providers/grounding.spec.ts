import { GROUNDED_INSTRUCTIONS, MODEL_DECLINE_SENTENCE, recognizeDecline } from './grounding.js';

describe('grounded replies of model providers', () => {
  it('tells the model to answer only from the sources, cite them, and answer with the decline sentence otherwise', () => {
    expect(GROUNDED_INSTRUCTIONS).toContain('Answer only from the numbered sources');
    expect(GROUNDED_INSTRUCTIONS).toContain(`"${MODEL_DECLINE_SENTENCE}"`);
  });

  it('recognises the instructed sentence, whatever its quotes, case and spacing', () => {
    expect(recognizeDecline(MODEL_DECLINE_SENTENCE)).toEqual({ declined: true, how: 'sentence', matched: MODEL_DECLINE_SENTENCE });
    expect(recognizeDecline('  "I could NOT find this in the\nknowledge base."  ').declined).toBe(true);
    expect(recognizeDecline('Sorry! I could not find this in the knowledge base. Try asking about returns.').how).toBe('sentence');
  });

  it('recognises paraphrases of a decline', () => {
    for (const text of [
      "I couldn't find anything about gift cards in the provided sources.",
      'The provided passages do not mention warranty terms.',
      'That is not covered by the sources I was given.',
      'None of the passages answers this question.',
      'There is no information about international shipping.',
      'I’m sorry, but I can’t find that.',
    ]) {
      const r = recognizeDecline(text);
      expect([text, r.declined, r.how]).toEqual([text, true, 'paraphrase']);
      expect(r.matched).toBeTruthy();
    }
  });

  it('does not call an answer a decline: plain answers, and answers that cite while noting a gap', () => {
    expect(recognizeDecline('Returns are accepted within 30 days [1].')).toEqual({ declined: false, how: null, matched: null });
    const partial = recognizeDecline('Refunds take 5 days [1]. The sources do not mention exchanges.');
    expect(partial).toMatchObject({ declined: false, how: 'paraphrase' });
    expect(recognizeDecline('')).toEqual({ declined: false, how: null, matched: null });
  });
});
