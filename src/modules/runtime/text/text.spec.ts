import { componentName, renderElement } from './jsx.js';
import { keywords, sentences, stem, tokenPieces } from './terms.js';
import { countTextTokens } from './token-counter.js';

describe('JSX rendering', () => {
  it('escapes attribute values so the string stays one valid element', () => {
    const jsx = renderElement('ProductCard', [
      ['title', 'Say "hi" <b>{now}</b> & go'],
      ['price', 12.5],
      ['in stock', true],
      ['bad-name!', 'x'],
      ['nothing', null],
    ]);
    expect(jsx).toBe(
      '<ProductCard title="Say &quot;hi&quot; &lt;b&gt;&#123;now&#125;&lt;/b&gt; &amp; go" price={12.5} inStock={true} badName="x" nothing={null} />',
    );
  });

  it('names the component after the collection', () => {
    expect(componentName('products')).toBe('ProductCard');
    expect(componentName('hotel_rooms')).toBe('HotelRoomCard');
    expect(componentName('categories')).toBe('CategoryCard');
    expect(componentName('123')).toBe('ItemCard');
  });
});

describe('terms', () => {
  it('stems so that word forms meet', () => {
    expect(stem('running')).toBe(stem('run'));
    expect(stem('shoes')).toBe(stem('shoe'));
    expect(stem('hiking')).toBe(stem('hikes'));
    expect(stem('returned')).toBe(stem('return'));
    expect(stem('policies')).toBe(stem('policy'));
  });

  it('drops stopwords from keywords', () => {
    expect(keywords('Do you have any of the red shoes?')).toEqual(['red', stem('shoes')]);
  });

  it('splits sentences without breaking prices or abbreviations', () => {
    expect(sentences('Shipping costs $6.50 per order. Express is e.g. faster! Returns: 30 days.')).toEqual([
      'Shipping costs $6.50 per order.',
      'Express is e.g. faster!',
      'Returns: 30 days.',
    ]);
  });

  it('streams in pieces that rebuild the text exactly', () => {
    const text = '  Hi!\n\n1. Aero — $89 [1].  ';
    expect(tokenPieces(text).join('')).toBe(text);
  });

  it('counts tokens with a BPE tokenizer', () => {
    expect(countTextTokens('')).toBe(0);
    expect(countTextTokens('hello world')).toBe(2);
  });
});
