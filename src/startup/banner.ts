import type { AppConfig } from '../config/app-config.js';
import { readQuickstart } from '../quickstart/demo-setup.js';
import { providerEndpoint, type ProviderEndpoint } from '../modules/runtime/providers/provider-errors.js';

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
    `  Web widget:  <script src="${base}/widget.js" data-publishable-key="pk_…" defer></script>   (docs/widget.md)`,
    `  Models:      ${modelsLine(config)}`,
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
 * Which model providers bundles can name here, and where their calls go: `builtin` always; `openai` and `anthropic`
 * with their URL and variable once a key or a base URL is set (publishing a bundle that names one otherwise is 422).
 */
export function modelsLine(config: AppConfig): string {
  const describe = (endpoint: ProviderEndpoint, settings: { apiKey?: string; baseUrl?: string }) =>
    settings.apiKey || settings.baseUrl
      ? `${endpoint.provider} → ${endpoint.url} (${endpoint.urlVariable}${settings.apiKey ? `, ${endpoint.keyVariable} set` : ''})`
      : `${endpoint.provider} not configured (${endpoint.keyVariable} or ${endpoint.urlVariable})`;
  const { openai, anthropic } = config.providers;
  return [
    'builtin (no network)',
    describe(providerEndpoint('openai', openai.baseUrl), openai),
    describe(providerEndpoint('anthropic', anthropic.baseUrl), anthropic),
  ].join('; ');
}
