import { useState } from 'preact/hooks';
import { API_BASE } from '../api';
import { ErrorNote } from '../components/ErrorNote';
import type { PageProps } from '../console';
import { useLoad } from '../load';

const lines = (text: string) =>
  text
    .split(/[\n,]/)
    .map((l) => l.trim())
    .filter(Boolean);

/** Whether the service serves the web widget (DESIGN.md "Console and web widget"): its snippet is shown only then. */
async function widgetServed(): Promise<boolean> {
  const res = await fetch(`${API_BASE}/widget.js`, { method: 'HEAD' }).catch(() => undefined);
  return res?.ok ?? false;
}

/**
 * The agent's keys: publishable keys (for browsers and the widget, restricted to origins and IP ranges) and agent
 * API keys (for the events webhook). A secret is shown once, when it is made.
 */
export default function KeysPage({ api, agent }: PageProps) {
  const agentId = agent!.id;
  const [publishable, reloadPublishable] = useLoad(() => api.publishableKeys(agentId), [agentId]);
  const [apiKeys, reloadApiKeys] = useLoad(() => api.apiKeys(agentId), [agentId]);
  const [widget] = useLoad(widgetServed, []);
  const [origins, setOrigins] = useState('');
  const [ranges, setRanges] = useState('');
  const [secret, setSecret] = useState<{ kind: 'publishable' | 'api'; value: string }>();
  const [error, setError] = useState<unknown>();

  async function act(action: () => Promise<unknown>) {
    setError(undefined);
    try {
      await action();
    } catch (e) {
      setError(e);
    }
  }

  const base = `${location.origin}${API_BASE}`;
  return (
    <div class="page">
      <h2>Keys</h2>
      <ErrorNote error={error ?? publishable.error ?? apiKeys.error} />
      {secret && (
        <div class="panel secret" data-testid="new-secret" role="status">
          <p>
            <strong>{secret.kind === 'publishable' ? 'Publishable key' : 'Agent API key'}</strong> — copy it now: it is not shown again.
          </p>
          <code class="block">{secret.value}</code>
          <div class="row">
            <button type="button" class="secondary" onClick={() => void navigator.clipboard?.writeText(secret.value)}>
              Copy
            </button>
          </div>
          {secret.kind === 'publishable' && widget.value && (
            <>
              <p>Put the agent on a web page (an allowed origin) with:</p>
              <code
                class="block"
                data-testid="widget-snippet"
              >{`<script src="${base}/widget.js" data-publishable-key="${secret.value}" defer></script>`}</code>
            </>
          )}
        </div>
      )}
      <section class="panel" aria-label="Publishable keys">
        <h3>Publishable keys</h3>
        <p class="muted small">
          For browsers: exchanged at <code>POST /management/v1/auth/token</code> for a messaging token. Restrict each key to the web origins
          that may use it and, optionally, to client IP ranges; empty means any.
        </p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void act(async () => {
              const made = await api.createPublishableKey(agentId, { allowed_origins: lines(origins), allowed_ip_ranges: lines(ranges) });
              setSecret({ kind: 'publishable', value: made.publishable_key });
              setOrigins('');
              setRanges('');
              reloadPublishable();
            });
          }}
        >
          <div class="row wrap">
            <label class="grow">
              Allowed origins (one per line)
              <textarea
                rows={2}
                value={origins}
                onInput={(e) => setOrigins(e.currentTarget.value)}
                placeholder="https://shop.example.com"
              />
            </label>
            <label class="grow">
              Allowed IP ranges (CIDR, one per line)
              <textarea rows={2} value={ranges} onInput={(e) => setRanges(e.currentTarget.value)} placeholder="203.0.113.0/24" />
            </label>
          </div>
          <button type="submit">Create publishable key</button>
        </form>
        <ul class="items" data-testid="publishable-keys">
          {(publishable.value?.results ?? []).map((k) => (
            <li key={k.id}>
              <div class="grow">
                <code>{k.key_prefix}…</code>
                <div class="muted small">
                  origins: {k.allowed_origins.join(', ') || 'any'} · IPs: {k.allowed_ip_ranges.join(', ') || 'any'} · created{' '}
                  {new Date(k.created_at).toLocaleString()}
                </div>
              </div>
              <button
                type="button"
                class="danger"
                onClick={() =>
                  void act(async () => {
                    await api.deletePublishableKey(agentId, k.id);
                    reloadPublishable();
                  })
                }
                aria-label={`Revoke ${k.key_prefix}`}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section class="panel" aria-label="Agent API keys">
        <h3>Agent API keys</h3>
        <p class="muted small">
          For servers: the <code>x-agent-api-key</code> of the events webhook (<code>POST /messaging/v1/events</code>).
        </p>
        <button
          type="button"
          onClick={() =>
            void act(async () => {
              const made = await api.createApiKey(agentId);
              setSecret({ kind: 'api', value: made.api_key });
              reloadApiKeys();
            })
          }
        >
          Create agent API key
        </button>
        <ul class="items" data-testid="api-keys">
          {(apiKeys.value?.results ?? []).map((k) => (
            <li key={k.id}>
              <div class="grow">
                <code>{k.key_prefix}…</code>
                <div class="muted small">created {new Date(k.created_at).toLocaleString()}</div>
              </div>
              <button
                type="button"
                class="danger"
                onClick={() =>
                  void act(async () => {
                    await api.deleteApiKey(agentId, k.id);
                    reloadApiKeys();
                  })
                }
                aria-label={`Revoke ${k.key_prefix}`}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
