import type { AppConfig } from '../config/app-config.js';
import { ANTHROPIC_DEFAULT_BASE_URL } from '../modules/runtime/providers/anthropic.provider.js';
import { displayEndpoint } from '../modules/runtime/providers/llm-provider.js';
import { OPENAI_DEFAULT_BASE_URL } from '../modules/runtime/providers/openai.provider.js';
import { readQuickstart } from '../quickstart/demo-setup.js';

/** The URL a person on this machine types: a wildcard bind address is reached through loopback. */
export function publicBaseUrl(config: AppConfig, port: number): string {
  const host = ['0.0.0.0', '::', ''].includes(config.http.host) ? '127.0.0.1' : config.http.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}${config.http.basePath}`;
}

/**
 * The few lines a person needs after `npm start`, printed once the service listens (below the boot logs): where
 * the console, the docs and the models are and, with the demo set up (QUICKSTART_FILE), the keys and a curl that works as printed.
 */
export function startBanner(config: AppConfig, port: number): string {
  const base = publicBaseUrl(config, port);
  const lines = [
    '',
    `  Agent service ready at ${base}`,
    '',
    `  Console:     ${base}/console`,
    `  API docs:    ${base}/docs`,
    ...modelLines(config),
  ];
  const quickstart = config.quickstartFile ? readQuickstart(config.quickstartFile) : undefined;
  if (config.bootstrap.orgApiKey) {
    lines.push(`  Org API key: ${config.bootstrap.orgApiKey}   (BOOTSTRAP_ORG_API_KEY; npm start keeps it in .data/demo-org-api-key)`);
  }
  const shop = quickstart?.agents[0];
  if (quickstart && shop) {
    lines.push(`  Demo agents: ${quickstart.agents.map((a) => `${a.name} (${a.runtime})`).join(', ')} — keys in ${config.quickstartFile}`);
    lines.push(
      '',
      `  Talk to "${shop.name}" from a shell (a token from its publishable key, then a message):`,
      '',
      `    TOKEN=$(curl -s ${base}/management/v1/auth/token -H 'content-type: application/json' \\`,
      `      -d '{"grant_type":"publishable_key","publishable_key":"${shop.publishable_key}"}' | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
      `    curl -s ${base}/messaging/v1/messages -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' \\`,
      `      -d '{"text":"${shop.try_text}","user_id":"demo-user"}'`,
    );
  }
  return `${lines.join('\n')}\n\n`;
}

/**
 * Which models can answer and where they are called: replies come from the builtin writer unless a bundle names a
 * provider; each provider's endpoint is its *_BASE_URL (or the vendor's default) and says whether a key is set.
 */
function modelLines(config: AppConfig): string[] {
  const provider = (name: 'openai' | 'anthropic', variable: string, vendorDefault: string) => {
    const { baseUrl, apiKey } = config.providers[name];
    return `${name} at ${displayEndpoint(baseUrl ?? vendorDefault)} (${baseUrl ? variable : `${variable} unset: the vendor's`}, key ${apiKey ? 'set' : 'not set'})`;
  };
  return [
    "  Models:      builtin writer (no network) unless an agent's bundle names model.provider:",
    `               ${provider('openai', 'OPENAI_BASE_URL', OPENAI_DEFAULT_BASE_URL)}`,
    `               ${provider('anthropic', 'ANTHROPIC_BASE_URL', ANTHROPIC_DEFAULT_BASE_URL)}`,
  ];
}
