import { normalizeIpRanges, normalizeOrigins } from './key-restrictions.js';

describe('normalizeOrigins', () => {
  it('keeps web origins as browsers send them', () => {
    expect(
      normalizeOrigins(['https://Shop.Example.com', 'http://localhost:3000/', 'https://a.example:443', 'https://shop.example.com']),
    ).toEqual(['https://shop.example.com', 'http://localhost:3000', 'https://a.example']);
    expect(normalizeOrigins(undefined)).toEqual([]);
  });

  it('names every invalid entry', () => {
    expect(() => normalizeOrigins(['https://ok.example', 'https://x.example/path', 'file:///etc', '*'])).toThrow(
      expect.objectContaining({
        status: 422,
        details: [
          expect.objectContaining({ field: 'allowed_origins[1]' }),
          expect.objectContaining({ field: 'allowed_origins[2]' }),
          expect.objectContaining({ field: 'allowed_origins[3]' }),
        ],
      }),
    );
  });
});

describe('normalizeIpRanges', () => {
  it('accepts v4 and v6 CIDR ranges and turns bare addresses into single-address ranges', () => {
    expect(normalizeIpRanges(['10.0.0.0/8', ' 2001:db8::/32 ', '192.0.2.1', '::1', '2001:0db8:0000::/48'])).toEqual([
      '10.0.0.0/8',
      '2001:db8::/32',
      '192.0.2.1/32',
      '::1/128',
      '2001:db8::/48',
    ]);
  });

  it.each(['10.0.0.0/33', '10.0.0/8', '300.1.1.1', '2001:db8::/129', 'localhost', '10.0.0.0/-1', ''])('rejects %j', (range) => {
    expect(() => normalizeIpRanges(['1.2.3.4/32', range])).toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ field: 'allowed_ip_ranges[1]' })] }),
    );
  });
});
