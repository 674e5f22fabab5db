import { failures, type ReplyFacts } from './turn-checks.js';

const reply = (facts: Partial<ReplyFacts> = {}): ReplyFacts => ({
  text: 'You can return any item within 30 days [1].',
  cited: ['returns'],
  cards: [],
  declined: false,
  tools: [],
  handedOff: false,
  ...facts,
});

describe('turn checks', () => {
  it('passes a reply that meets every expectation, phrases case-insensitively', () => {
    expect(
      failures({ contains: ['30 DAYS'], not_contains: ['14 days'], cites: ['returns'], declines: false, handoff: false }, reply()),
    ).toEqual([]);
  });

  it('names each failed check with what was found instead', () => {
    expect(
      failures(
        {
          contains: ['14 days'],
          not_contains: ['return'],
          cites: ['shipping'],
          cards: ['shoe-1'],
          declines: true,
          tools: ['catalog'],
          handoff: true,
        },
        reply(),
      ),
    ).toEqual([
      'contains: the reply does not contain "14 days"',
      'not_contains: the reply contains "return"',
      'cites: document "shipping" is not cited (cited: returns)',
      'cards: record "shoe-1" is not shown (shown: nothing)',
      'declines: the reply answered instead of declining',
      'tools: tool "catalog" did not run (ran: nothing)',
      'handoff: the turn did not hand the thread off',
    ]);
  });

  it('checks only what the expectation names', () => {
    expect(failures({}, reply({ declined: true, cited: [] }))).toEqual([]);
    expect(failures({ declines: false }, reply({ declined: true }))).toEqual(['declines: the reply declined']);
  });
});
