import { fillSecretReferences, secretReferenceSites, secretReferencesOf } from './secret-references.js';

describe('secret references ({{secret:NAME}})', () => {
  it('finds each name once, in order, and fills them', () => {
    expect(secretReferencesOf('Bearer {{secret:TOKEN}}')).toEqual({ names: ['TOKEN'], problem: null });
    expect(secretReferencesOf('{{secret:A}}:{{secret:b_2}}:{{secret:A}}')).toEqual({ names: ['A', 'b_2'], problem: null });
    expect(secretReferencesOf('plain value {{not a secret}}')).toEqual({ names: [], problem: null });
    expect(fillSecretReferences('{{secret:A}}-{{secret:B}}', (name) => name.toLowerCase().repeat(2))).toBe('aa-bb');
  });

  it('refuses malformed references rather than sending them as text', () => {
    for (const value of [
      '{{secret:}}',
      '{{secret:1A}}',
      '{{secret:a.b}}',
      '{{secret: A}}',
      '{{ secret:A}}',
      '{{secret:A',
      'x{{secret:../A}}',
    ]) {
      expect([value, secretReferencesOf(value).problem]).toEqual([value, expect.any(String)]);
    }
  });

  it('names the header field of every reference in HTTP tools and MCP servers', () => {
    expect(
      secretReferenceSites({
        tools: [
          { code: 'c', type: 'catalog_search', collection: 'p', title_field: 'n', fields: ['n'], max_results: 1 },
          {
            code: 'h',
            type: 'http',
            method: 'GET',
            url: 'https://x.example/',
            headers: { 'x-api-key': '{{secret:K}}', plain: 'v' },
            response: { message: 'm' },
          },
        ],
        mcp_servers: [{ name: 'm', url: 'https://m.example/mcp', headers: { Authorization: 'Bearer {{secret:T}}' }, allowed_tools: ['t'] }],
      }),
    ).toEqual([
      { field: 'bundle.tools[1].headers["x-api-key"]', names: ['K'] },
      { field: 'bundle.mcp_servers[0].headers.Authorization', names: ['T'] },
    ]);
  });
});
