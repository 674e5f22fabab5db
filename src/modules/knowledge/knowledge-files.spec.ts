import { decodeText, documentsOf, fileKind, fileSlug, madeFromFile } from './knowledge-files.js';

describe('knowledge files', () => {
  it('knows a file by its extension, else by its media type', () => {
    expect(fileKind('guide.MD', 'application/octet-stream')).toBe('markdown');
    expect(fileKind('page.htm', '')).toBe('html');
    expect(fileKind('notes.txt', 'text/html')).toBe('text');
    expect(fileKind('upload', 'text/html; charset=utf-8')).toBe('html');
    expect(fileKind('manual.pdf', 'application/pdf')).toBeNull();
    expect(fileKind('manual.pdf', 'text/plain')).toBeNull();
  });

  it('decodes UTF-8 and refuses what cannot be stored', () => {
    expect(decodeText(Buffer.from('\uFEFFhello é'))).toEqual({ text: 'hello é' });
    expect(decodeText(Buffer.from([0x68, 0xc3, 0x28]))).toEqual({ problem: 'is not valid UTF-8' });
    expect(decodeText(Buffer.from('a\u0000b'))).toEqual({ problem: 'contains NUL characters' });
    expect(decodeText(Buffer.from(' \n\t'))).toEqual({ problem: 'is empty' });
    // an encoded lone surrogate is invalid UTF-8
    expect(decodeText(Buffer.from([0x61, 0xed, 0xa0, 0x80]))).toEqual({ problem: 'is not valid UTF-8' });
  });

  it('splits Markdown by h1–h3 headings with their trail as the title; deeper headings and code stay in the text', () => {
    const md = [
      'Intro before any heading.',
      '# Guide',
      'Welcome to the **guide**, see [the site](https://example.com).',
      '## Install',
      '```',
      '# not a heading',
      '```',
      '### Linux',
      'Run the installer.',
      '#### Troubleshooting',
      'Check the logs.',
      'Setext\n------',
      'Under a setext heading.',
    ].join('\n\n');
    const docs = documentsOf('Guide Book.md', 'markdown', md);
    expect(docs).toEqual([
      { id: 'guide-book.md', title: 'Guide Book', text: 'Intro before any heading.' },
      { id: 'guide-book.md:guide', title: 'Guide', text: 'Welcome to the guide, see the site.' },
      { id: 'guide-book.md:install', title: 'Guide › Install', text: '# not a heading' },
      {
        id: 'guide-book.md:linux',
        title: 'Guide › Install › Linux',
        text: 'Run the installer.\n\n#### Troubleshooting\n\nCheck the logs.',
      },
      { id: 'guide-book.md:setext', title: 'Guide › Setext', text: 'Under a setext heading.' },
    ]);
  });

  it('reads HTML as a browser shows it: no scripts or styles, entities decoded, list items and broken markup handled', () => {
    const html = `<html><head><title>Shop help</title><style>p{}</style></head><body>
      <p>Opening &amp; hours</p><script>alert(1)</script>
      <h2>Returns</h2><ul><li>Within 30 days<li>With receipt</ul><p>Unclosed <b>bold
      <h2>Returns</h2><p>Again</p></body></html>`;
    const docs = documentsOf('help.html', 'html', html);
    expect(docs.map((d) => d.id)).toEqual(['help.html', 'help.html:returns', 'help.html:returns-2']);
    expect(docs[0]).toEqual({ id: 'help.html', title: 'Shop help', text: 'Opening & hours' });
    expect(docs[1]!.text).toBe('- Within 30 days\n\n- With receipt\n\nUnclosed bold');
    expect(docs[1]!.title).toBe('Returns');
  });

  it('keeps plain text as one document titled by the file name, and cuts an over-long section into parts', () => {
    expect(documentsOf('faq.txt', 'text', 'One.\n\nTwo.')).toEqual([{ id: 'faq.txt', title: 'faq', text: 'One.\n\nTwo.' }]);
    const long = ['a'.repeat(150_000), 'b'.repeat(150_000)].join('\n\n');
    const docs = documentsOf('big.txt', 'text', long);
    expect(docs.map((d) => [d.id, d.title, d.text.length])).toEqual([
      ['big.txt-part-1', 'big (part 1)', 150_000],
      ['big.txt-part-2', 'big (part 2)', 150_000],
    ]);
  });

  it('names documents after their file, so a new upload of the file knows which ones it replaces', () => {
    expect(fileSlug('../Returns Policy (2024).MD')).toBe('returns-policy-2024-.md');
    expect(madeFromFile('faq.md', 'faq.md')).toBe(true);
    expect(madeFromFile('faq.md:shipping', 'faq.md')).toBe(true);
    expect(madeFromFile('faq.md-part-2', 'faq.md')).toBe(true);
    expect(madeFromFile('faq.md.old', 'faq.md')).toBe(false);
  });
});
