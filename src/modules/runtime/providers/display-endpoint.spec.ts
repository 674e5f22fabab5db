import { displayEndpoint } from './llm-provider.js';

describe('displayEndpoint (traces and the start banner show where a provider is called)', () => {
  it('keeps scheme, host, port and path, and drops credentials, query, fragment and a trailing slash', () => {
    expect(displayEndpoint('https://operator:s3cret@llm.example.com:8443/v1/?api-key=k#x')).toBe('https://llm.example.com:8443/v1');
    expect(displayEndpoint('http://127.0.0.1:4000/')).toBe('http://127.0.0.1:4000');
  });

  it('says so for a value that is not a URL, rather than echoing it', () => {
    expect(displayEndpoint('not a url with a key sk-123')).toBe('(invalid URL)');
  });
});
