import { existsSync, readFileSync } from 'node:fs';
import { compileWordNet, formatTable, parseTable, relationsOf, synonymsOf, tablePath, wordnet } from './wordnet.js';

describe('WordNet synonym table', () => {
  const compiled = compileWordNet();

  it('reads back from its compact text form exactly as compiled from the database', () => {
    const parsed = parseTable(formatTable(compiled));
    expect(parsed.synonyms).toEqual(compiled.synonyms);
    expect(parsed.stems).toEqual(compiled.stems);
    expect(parsed.nounStems).toEqual(compiled.nounStems);
    expect(parsed.relations).toEqual(compiled.relations);
    expect(synonymsOf(parsed, 'car')).toContain('automobile');
    expect(synonymsOf(parsed, 'zzzz')).toEqual([]);
    expect(synonymsOf(null, 'car')).toEqual([]);
  });

  it('is what the build wrote under dist/, and what a process loads', () => {
    // `npm run build` runs before the specs (helper rules); the table must match the installed database.
    expect(existsSync(tablePath())).toBe(true);
    expect(readFileSync(tablePath(), 'utf8')).toBe(formatTable(compiled));
    expect(wordnet()?.synonyms.get('car')).toBe(compiled.synonyms.get('car'));
  });

  it('knows derivations, the broader term of nouns, how specific a word is and whether it is a noun', () => {
    expect(relationsOf(compiled, 'try')?.derivations).toContain('trial');
    expect(relationsOf(compiled, 'month')?.derivations).toContain('monthly');
    const toddler = relationsOf(compiled, 'toddler')!;
    expect(toddler.broader).toContain('child');
    expect(toddler.noun).toBe(true);
    expect(toddler.senses).toBe(1);
    expect(relationsOf(compiled, 'get')!.senses).toBeGreaterThan(30);
    expect(relationsOf(compiled, 'sell')!.noun).toBe(false);
    expect(compiled.nounStems.has('skateboard')).toBe(true);
    expect(relationsOf(compiled, 'zzzz')).toBeNull();
  });
});
