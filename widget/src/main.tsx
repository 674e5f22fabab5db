/**
 * The web widget's entry (docs/widget.md): `<script src="{base_url}/widget.js" data-publishable-key="pk_…" defer>`.
 * It exchanges the key for an access token first; where the key's allowed origins refuse this page, it renders
 * nothing and says why in the console. Otherwise it adds one element to the page whose shadow root holds the
 * launcher, the chat and their styles, so the page's CSS cannot reach in and the widget's cannot leak out.
 */
import { render } from 'preact';
import { ApiError, WidgetApi } from './api';
import { readConfig, type WidgetConfig } from './config';
import { visitorId } from './store';
import { Widget } from './widget';
import css from './widget.css?inline';

/** Constructable stylesheets (Chromium 73+, Firefox 101+, Safari 16.4+); older browsers get a <style> element. */
const CONSTRUCTABLE_SHEETS = typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype;
// Only defined while the script first runs (also for `defer`), so read it now.
const script = document.currentScript as HTMLScriptElement | null;

async function mount(config: WidgetConfig): Promise<void> {
  const api = new WidgetApi(config.baseUrl, config.publishableKey);
  let agentId: string | null;
  try {
    // A publishable key's token always acts as its agent.
    agentId = (await api.tokens.details()).agent_id;
  } catch (error) {
    console.warn(`[agent widget] not shown: ${refusal(error)}`);
    return;
  }
  if (!agentId) return console.warn('[agent widget] not shown: data-publishable-key must be a publishable key (pk_…)');
  const host = document.createElement('div');
  host.setAttribute('data-agent-widget', agentId);
  const shadow = host.attachShadow({ mode: 'open' });
  const root = document.createElement('div');
  if (CONSTRUCTABLE_SHEETS) {
    // A constructed sheet: no <style> element for a page's style-src policy to refuse.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    shadow.adoptedStyleSheets = [sheet];
  } else {
    const style = document.createElement('style');
    style.textContent = css;
    shadow.append(style);
  }
  shadow.append(root);
  document.body.append(host);
  render(<Widget api={api} config={config} agentId={agentId} userId={config.userId ?? visitorId()} />, root);
}

function refusal(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.message === 'origin_not_allowed') {
      return `this page's origin (${location.origin}) is not in the publishable key's allowed_origins`;
    }
    if (error.message === 'ip_not_allowed') return "this visitor's address is not in the publishable key's allowed_ip_ranges";
    if (error.message === 'invalid_publishable_key') return 'the publishable key is unknown or revoked';
    return `${error.status} ${error.code}: ${error.message}`;
  }
  return `the service at ${script?.src ?? 'its URL'} could not be reached (${String(error)})`;
}

function start(): void {
  if (!script) return console.error('[agent widget] load widget.js with a <script src> tag, not as a module or injected code');
  const config = readConfig(script);
  if (typeof config === 'string') return console.error(`[agent widget] ${config}`);
  void mount(config);
}

if (document.body) start();
else document.addEventListener('DOMContentLoaded', start, { once: true });
