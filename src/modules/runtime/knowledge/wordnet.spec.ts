import { existsSync, readFileSync } from 'node:fs';
import { compileWordNet, formatTable, parseTable, synonymsOf, tablePath, wordnet } from './wordnet.js';

describe('WordNet synonym table', () => {
  const compiled = compileWordNet();

  it('reads back from its compact text form exactly as compiled from the database', () => {
    const parsed = parseTable(formatTable(compiled));
    expect(parsed.synonyms).toEqual(compiled.synonyms);
    expect(parsed.stems).toEqual(compiled.stems);
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
});
