import { analyze, baseForm, questionWords, stemWord } from './analyzer.js';
import { answerability } from './answerability.js';
import { KnowledgeRetriever } from './retriever.js';

const docs = [
  {
    id: 'start',
    title: 'Starting the database server',
    text: 'The database server starts at boot when the service is enabled. Use pg_ctl start to start it by hand.',
  },
  {
    id: 'app',
    title: 'Client applications',
    text: 'An application connects to the server over TCP/IP or a Unix socket, using a read-only or a read-write role.',
  },
  {
    id: 'memory',
    title: 'Memory',
    text: 'The kernel may kill the server process when memory runs low unless overcommit is turned off.',
  },
];

function retrieverOf(documents: typeof docs): { r: KnowledgeRetriever; passageDoc: string[] } {
  return {
    r: new KnowledgeRetriever(
      documents,
      documents.map((d) => ({ documentId: d.id, title: d.title, text: d.text })),
    ),
    passageDoc: documents.map((d) => d.id),
  };
}

describe('knowledge analyzer: base forms', () => {
  it('meets irregular plurals and verb forms with their base ("teeth"/"tooth", "paid"/"pay")', () => {
    expect(stemWord('teeth')).toBe(stemWord('tooth'));
    expect(stemWord('paid')).toBe(stemWord('pay'));
    expect(stemWord('forgotten')).toBe(stemWord('forget'));
    expect(analyze('children')).toEqual(analyze('child'));
  });

  it('reads comparatives WordNet does not list as their base, and leaves known words and names alone', () => {
    expect(baseForm('whiter')).toBe('white');
    expect(baseForm('cheapest')).toBe('cheap');
    expect(baseForm('happier')).toBe('happy');
    expect(baseForm('water')).toBe('water');
    expect(baseForm('docker')).toBe('docker');
  });
});

describe('knowledge analyzer: clipped words and compounds', () => {
  it('reads clipped support words as their full form ("db" → database, "app" → application, "RAM" → memory)', () => {
    const words = questionWords('my app cannot reach the db when RAM is low');
    expect(words.map((w) => w.word)).toEqual(['application', 'cannot', 'reach', 'database', 'memory', 'low']);
    expect(words.every((w) => w.weight > 0)).toBe(true);
  });

  it('leaves words that name object properties alone ("constructor", "toString")', () => {
    expect(questionWords('constructor toString hasOwnProperty').map((w) => w.word)).toEqual(['constructor', 'tostring', 'hasownproperty']);
  });

  it('does not rewrite a clipped word inside an identifier (db of pg_db_role)', () => {
    const words = questionWords('what is pg_db_role');
    expect(words.map((w) => w.word)).toEqual(['pg_db_role', 'pg', 'db', 'role']);
    expect(words.find((w) => w.word === 'db')).toMatchObject({ of: 'pg_db_role', weight: 0.5 });
  });

  it('indexes slash and hyphen compounds whole beside their parts', () => {
    const terms = analyze('PL/Python and read-only roles');
    expect(terms.slice(0, 3)).toEqual(['pl/python', 'pl', 'python']);
    expect(terms).toEqual(expect.arrayContaining(['read-only', 'read', 'role']));
  });

  it('keeps the parts of a hyphenated word as full words of the question, parts of an identifier as fragments', () => {
    const hyphen = questionWords('a read-only role');
    expect(hyphen.find((w) => w.word === 'read-only')).toMatchObject({ weight: 1 });
    expect(hyphen.find((w) => w.word === 'read')).toMatchObject({ weight: 1 });
    expect(hyphen.find((w) => w.word === 'read')?.of).toBeUndefined();
    const slash = questionWords('PL/SQL packages');
    expect(slash.find((w) => w.word === 'sql')).toMatchObject({ of: 'pl/sql', weight: 0.5 });
  });
});

describe('knowledge retriever: clipped words and compounds in ranking and answerability', () => {
  const { r, passageDoc } = retrieverOf(docs);
  const decide = (q: string, threshold = 0.2) => {
    const result = r.search(questionWords(q));
    return { top: passageDoc[result.passages[0]?.index ?? -1], a: answerability(result, (i) => passageDoc[i]!, threshold) };
  };

  it('finds the database document for a question that only says "db"', () => {
    const { top, a } = decide('how do I make the db start at boot');
    expect(top).toBe('start');
    expect(a.uncovered).not.toContain('db');
    expect(a.answerable).toBe(true);
  });

  it('searches for the clipped form itself in a knowledge base that never writes the full word', () => {
    const dbOnly = retrieverOf([
      { id: 'restart', title: 'Restarts', text: 'Restart the db after you change its port.' },
      { id: 'billing', title: 'Billing', text: 'Invoices are sent on the first day of the month.' },
    ]);
    const result = dbOnly.r.search(questionWords('how do I restart my db'));
    expect(dbOnly.passageDoc[result.passages[0]!.index]).toBe('restart');
    expect(result.passages[0]!.uncovered).toEqual([]);
  });

  it('matches a compound the knowledge base uses (read-only) and declines one it never uses (multi-master)', () => {
    expect(decide('can a client use a read-only role').a.answerable).toBe(true);
    const missing = decide('does the server support multi-master replication');
    expect(missing.a.uncovered).toContain('multi-master');
    expect(missing.a.answerable).toBe(false);
  });

  it('counts a compound named with a slash that the knowledge base lacks as uncovered (PL/SQL beside TCP/IP)', () => {
    expect(decide('does the server speak TCP/IP').a.uncovered).not.toContain('tcp/ip');
    expect(decide('can I run PL/SQL packages on the server').a.uncovered).toContain('pl/sql');
  });

  it('does not let a hyphenated whole lengthen a passage: the same text with and without hyphens scores alike', () => {
    const other = {
      id: 'y',
      title: 'Backups',
      text: 'Base backups copy the data directory while the server runs, and the archive keeps the WAL.',
    };
    const plain = retrieverOf([{ id: 'x', title: 'T', text: 'read only role for the reporting user' }, other]).r;
    const hyphen = retrieverOf([{ id: 'x', title: 'T', text: 'read-only role for the reporting user' }, other]).r;
    const q = questionWords('reporting user');
    expect(hyphen.search(q).passages[0]!.score).toBeCloseTo(plain.search(q).passages[0]!.score, 6);
  });
});
