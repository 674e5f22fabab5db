import { useState } from 'preact/hooks';
import { ErrorNote } from '../components/ErrorNote';
import type { PageProps } from '../console';
import { useLoad } from '../load';

/** How a new agent starts: an empty bundle of either runtime, or one of the service's templates. */
type Start = { kind: 'empty'; runtime: 'v1' | 'v2' } | { kind: 'template'; id: string; runtime: 'v1' | 'v2' };

const EMPTY_STARTS: Array<{ value: string; label: string; start: Start }> = [
  {
    value: 'empty:v2',
    label: 'Empty knowledge agent (v2: answers from documents, with citations)',
    start: { kind: 'empty', runtime: 'v2' },
  },
  { value: 'empty:v1', label: 'Empty decisioning agent (v1: catalog tools, rules, cards)', start: { kind: 'empty', runtime: 'v1' } },
];

/** The project's agents; a new one starts empty or from a template, with its first version made at once. */
export default function AgentsPage({ api, project: picked, agent, reloadAgents, go }: PageProps) {
  const project = picked!; // a project-scoped page (app.tsx renders it only with a project)
  const [agents, reload] = useLoad(() => api.agents(project.id), [project.id]);
  const [templates] = useLoad(() => api.templates(), []);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [startValue, setStartValue] = useState('empty:v2');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const starts = [
    ...EMPTY_STARTS,
    ...(templates.value?.results ?? []).map((t) => ({
      value: `template:${t.id}`,
      label: `Template: ${t.name} (${t.runtime}) — ${t.description}`,
      start: { kind: 'template', id: t.id, runtime: t.runtime } as Start,
    })),
  ];
  const start = starts.find((s) => s.value === startValue)?.start;

  async function create(e: Event) {
    e.preventDefault();
    if (!start) return;
    setBusy(true);
    setError(undefined);
    try {
      const made = await api.createAgent(project.id, {
        name: name.trim(),
        description: description.trim() || undefined,
        runtime: start.runtime,
      });
      await api.createVersion(made.id, start.kind === 'template' ? { source: 'template', template: start.id } : { source: 'empty' });
      setName('');
      setDescription('');
      await reloadAgents(made.id);
      // A knowledge agent needs documents next; a decisioning agent its bundle.
      go(start.runtime === 'v2' ? 'knowledge' : 'bundle');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function remove(agentId: string, agentName: string) {
    if (!confirm(`Delete agent “${agentName}”? Its versions and keys go; its threads stay readable.`)) return;
    setError(undefined);
    try {
      await api.deleteAgent(agentId);
      reload();
      await reloadAgents();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <div class="page">
      <h2>Agents</h2>
      <form class="panel" onSubmit={(e) => void create(e)} data-testid="new-agent">
        <h3>New agent</h3>
        <label>
          Name
          <input value={name} onInput={(e) => setName(e.currentTarget.value)} maxLength={100} required />
        </label>
        <label>
          Description (optional)
          <input value={description} onInput={(e) => setDescription(e.currentTarget.value)} maxLength={2000} />
        </label>
        <label>
          Start from
          <select value={startValue} onChange={(e) => setStartValue(e.currentTarget.value)} aria-label="Start from">
            {starts.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy || !name.trim()}>
          {busy ? 'Creating…' : 'Create agent'}
        </button>
      </form>
      <ErrorNote error={error ?? agents.error ?? templates.error} />
      <ul class="items" data-testid="agent-list">
        {(agents.value?.results ?? []).map((a) => (
          <li key={a.id} class={a.id === agent?.id ? 'selected' : ''}>
            <div class="grow">
              <strong>{a.name}</strong> <span class="muted">({a.runtime})</span>
              <div class="muted small">
                {a.live_version_tag ? `live ${a.live_version_tag}` : 'not published'} · created {new Date(a.created_at).toLocaleString()}
                {a.description ? ` · ${a.description}` : ''}
              </div>
            </div>
            <div class="row">
              {a.id !== agent?.id && (
                <button type="button" class="secondary" onClick={() => void reloadAgents(a.id)}>
                  Open
                </button>
              )}
              <button type="button" class="danger" onClick={() => void remove(a.id, a.name)}>
                Delete
              </button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
