import type { AppConfig } from '../config/app-config.js';
import { modelsLine } from './banner.js';

const config = (providers: Partial<AppConfig['providers']>) =>
  ({ providers: { openai: {}, anthropic: {}, timeoutMs: 1000, ...providers } }) as unknown as AppConfig;

describe('start banner: models', () => {
  it('names each provider, where its calls go and the variables that set it up', () => {
    expect(modelsLine(config({}))).toBe(
      'builtin (no network); openai not configured (OPENAI_API_KEY or OPENAI_BASE_URL); ' +
        'anthropic not configured (ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL)',
    );
    expect(
      modelsLine(config({ openai: { baseUrl: 'http://user:secret@127.0.0.1:11434/v1/?x=1' }, anthropic: { apiKey: 'sk-ant-secret' } })),
    ).toBe(
      'builtin (no network); openai → http://127.0.0.1:11434/v1 (OPENAI_BASE_URL); ' +
        'anthropic → https://api.anthropic.com (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY set)',
    );
  });
});
