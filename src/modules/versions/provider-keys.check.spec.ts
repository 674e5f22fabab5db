import { ValidationError } from '../../common/errors/app-error.js';
import type { Bundle } from '../bundles/bundle.types.js';
import { assertProviderConfigured } from './provider-keys.check.js';

const bundle = (provider: 'builtin' | 'openai' | 'anthropic') => ({ model: { provider } }) as Bundle;
const none = { openai: {}, anthropic: {}, timeoutMs: 1000 };

describe('assertProviderConfigured', () => {
  it('passes builtin and bundles without a model whatever is configured', () => {
    expect(() => assertProviderConfigured(bundle('builtin'), none)).not.toThrow();
    expect(() => assertProviderConfigured({} as Bundle, none)).not.toThrow();
  });

  it('counts a key or a base URL alone (an OpenAI-compatible server such as vLLM or Ollama) as configured', () => {
    expect(() => assertProviderConfigured(bundle('openai'), { ...none, openai: { apiKey: 'sk-test' } })).not.toThrow();
    expect(() => assertProviderConfigured(bundle('openai'), { ...none, openai: { baseUrl: 'http://127.0.0.1:11434/v1' } })).not.toThrow();
    expect(() => assertProviderConfigured(bundle('anthropic'), { ...none, anthropic: { apiKey: 'sk-ant' } })).not.toThrow();
  });

  it("refuses a provider with neither, naming that provider's variables", () => {
    expect(() => assertProviderConfigured(bundle('anthropic'), { ...none, openai: { apiKey: 'sk-test' } })).toThrow(ValidationError);
    expect(() => assertProviderConfigured(bundle('anthropic'), none)).toThrow(/ANTHROPIC_API_KEY.*ANTHROPIC_BASE_URL/);
  });
});
