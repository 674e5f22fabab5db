import { ValidationError } from '../../common/errors/app-error.js';
import type { AppConfig } from '../../config/app-config.js';
import type { Bundle } from '../bundles/bundle.types.js';

const VARIABLES = {
  openai: { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
  anthropic: { key: 'ANTHROPIC_API_KEY', baseUrl: 'ANTHROPIC_BASE_URL' },
} as const;

/**
 * A version whose bundle names a model provider this deployment cannot reach would go live and then fail every
 * turn with upstream errors: refuse the publish and say which variable to set. A base URL alone counts as
 * configured (OpenAI-compatible servers such as vLLM or Ollama need no key).
 */
export function assertProviderConfigured(bundle: Bundle, providers: AppConfig['providers']): void {
  const provider = bundle.model?.provider;
  if (provider !== 'openai' && provider !== 'anthropic') return;
  const { apiKey, baseUrl } = providers[provider];
  if (apiKey || baseUrl) return;
  const names = VARIABLES[provider];
  throw ValidationError.field(
    'model.provider',
    `This version uses the ${provider} provider, but no key for it is configured: set ${names.key} ` +
      `(or ${names.baseUrl} for a compatible server) in the service's environment and restart it, or use provider "builtin"`,
  );
}
