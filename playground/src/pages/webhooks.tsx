import { useState } from 'preact/hooks';
import { ErrorNote } from '../components/ErrorNote';
import type { PageProps } from '../console';
import { useLoad } from '../load';
import type { Webhook } from '../types';

/**
 * The project's webhook endpoints (docs/webhooks.md): subscribe a URL to event types (the list is the service's
 * own, read from its OpenAPI document), see the signing secret once, pause, delete, read the delivery log.
 */
export default function WebhooksPage({ api, project: picked }: PageProps) {
  const project = picked!; // a project-scoped page (app.tsx renders it only with a project)
  const [hooks, reload] = useLoad(() => api.webhooks(project.id), [project.id]);
  const [types] = useLoad(() => api.webhookEventTypes(), []);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<unknown>();

  async function act(action: () => Promise<unknown>) {
    setError(undefined);
    try {
      await action();
      reload();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <div class="page">
      <h2>Webhooks · {project.name}</h2>
      <form
        class="panel"
        onSubmit={(e) => {
          e.preventDefault();
          void act(async () => {
            const made = await api.createWebhook(project.id, { url: url.trim(), events, description: description.trim() || undefined });
            setSecret(made.secret);
            setUrl('');
            setDescription('');
            setEvents([]);
          });
        }}
      >
        <h3>New endpoint</h3>
        <label>
          URL
          <input
            type="url"
            value={url}
            onInput={(e) => setUrl(e.currentTarget.value)}
            placeholder="https://example.com/hooks/agents"
            required
          />
        </label>
        <label>
          Description (optional)
          <input value={description} onInput={(e) => setDescription(e.currentTarget.value)} maxLength={500} />
        </label>
        <fieldset>
          <legend>Events</legend>
          <div class="row wrap">
            {(types.value ?? []).map((type) => (
              <label key={type} class="check">
                <input
                  type="checkbox"
                  checked={events.includes(type)}
                  onChange={(e) => setEvents(e.currentTarget.checked ? [...events, type] : events.filter((t) => t !== type))}
                />
                {type}
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" disabled={!url.trim() || events.length === 0}>
          Subscribe
        </button>
      </form>
      {secret && (
        <div class="panel secret" role="status" data-testid="new-secret">
          <p>
            <strong>Signing secret</strong> — copy it now: it is not shown again. Verify each delivery's <code>webhook-signature</code> with
            it.
          </p>
          <code class="block">{secret}</code>
        </div>
      )}
      <ErrorNote error={error ?? hooks.error ?? types.error} />
      <ul class="items" data-testid="webhook-list">
        {(hooks.value?.results ?? []).map((hook) => (
          <WebhookItem key={hook.id} api={api} projectId={project.id} hook={hook} act={act} />
        ))}
      </ul>
      {hooks.value?.results.length === 0 && <p class="muted">No endpoint yet.</p>}
    </div>
  );
}

function WebhookItem({
  api,
  projectId,
  hook,
  act,
}: {
  api: PageProps['api'];
  projectId: string;
  hook: Webhook;
  act: (action: () => Promise<unknown>) => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const [deliveries] = useLoad(() => (open ? api.deliveries(projectId, hook.id) : Promise.resolve(undefined)), [open]);
  return (
    <li class="column">
      <div class="row wrap between">
        <div class="grow">
          <strong class="break">{hook.url}</strong>
          <div class="muted small">
            {hook.enabled ? 'enabled' : `paused${hook.disabled_reason ? `: ${hook.disabled_reason}` : ''}`} · {hook.events.join(', ')}
            {hook.consecutive_failures ? ` · ${hook.consecutive_failures} failures in a row` : ''}
            {hook.description ? ` · ${hook.description}` : ''}
          </div>
        </div>
        <div class="row wrap">
          <button type="button" class="secondary" onClick={() => setOpen(!open)} aria-expanded={open}>
            Deliveries
          </button>
          <button
            type="button"
            class="secondary"
            onClick={() => void act(() => api.updateWebhook(projectId, hook.id, { enabled: !hook.enabled }))}
          >
            {hook.enabled ? 'Pause' : 'Enable'}
          </button>
          <button
            type="button"
            class="danger"
            onClick={() => {
              if (confirm(`Delete the endpoint ${hook.url} and its delivery log?`)) void act(() => api.deleteWebhook(projectId, hook.id));
            }}
          >
            Delete
          </button>
        </div>
      </div>
      {open && (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Deliveries">
          <ErrorNote error={deliveries.error} />
          <table>
            <thead>
              <tr>
                <th>Event</th>
                <th>Status</th>
                <th>Attempts</th>
                <th>Last answer</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {(deliveries.value?.results ?? []).map((d) => (
                <tr key={d.id}>
                  <td>{d.event_type}</td>
                  <td>{d.status}</td>
                  <td>{d.attempts}</td>
                  <td>{d.last_status_code ?? d.last_error ?? '—'}</td>
                  <td>{new Date(d.created_at).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {deliveries.value?.results.length === 0 && <p class="muted">Nothing delivered yet.</p>}
        </div>
      )}
    </li>
  );
}
