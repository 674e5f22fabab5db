import { useState } from 'preact/hooks';
import { BundleEditor, type EditorProblem } from '../components/BundleEditor';
import { ErrorNote } from '../components/ErrorNote';
import type { PageProps } from '../console';
import { useLoad } from '../load';
import type { PushResult } from '../types';
import { versionLabel } from '../versions';

/**
 * Edit a version's bundle and push it as a new revision: the editor checks it against the published schema as you
 * type; the push is checked again by the service (its 422 details name each bad field).
 */
export default function BundlePage({ api, agent }: PageProps) {
  const agentId = agent!.id;
  const [round, setRound] = useState(0);
  const [versions] = useLoad(() => api.versions(agentId), [agentId, round]);
  const [schema] = useLoad(() => api.bundleSchema(), []);
  const editable = (versions.value?.results ?? [])
    .filter((v) => !v.is_revision && v.status !== 'archived')
    .sort((a, b) => b.number - a.number);
  const [versionId, setVersionId] = useState<string>();
  const version = editable.find((v) => v.id === versionId) ?? editable[0];
  const [pulled] = useLoad(() => (version ? api.pull(agentId, version.id) : Promise.resolve(undefined)), [version?.id, round]);
  const [text, setText] = useState<string>();
  const [problems, setProblems] = useState<EditorProblem[]>([]);
  const [message, setMessage] = useState('');
  const [pushed, setPushed] = useState<PushResult>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  async function push() {
    if (!version || text === undefined) return;
    setBusy(true);
    setError(undefined);
    setPushed(undefined);
    try {
      let bundle: unknown;
      try {
        bundle = JSON.parse(text);
      } catch (e) {
        throw new Error(`The bundle is not valid JSON: ${(e as Error).message}`, { cause: e });
      }
      setPushed(await api.push(agentId, version.id, bundle, message.trim() || undefined));
      setMessage('');
      setText(undefined);
      setRound((n) => n + 1);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  const initial = pulled.value ? JSON.stringify(pulled.value.bundle, null, 2) : undefined;
  return (
    <div class="page">
      <h2>Bundle</h2>
      <div class="toolbar">
        <label>
          Version
          <select
            value={version?.id}
            onChange={(e) => {
              setVersionId(e.currentTarget.value);
              setText(undefined);
            }}
            aria-label="Version"
          >
            {editable.map((v) => (
              <option key={v.id} value={v.id}>
                {versionLabel(v, agent!.live_version_id)} · {v.version_tag}
              </option>
            ))}
          </select>
        </label>
        <span class="muted small">
          Fields: <code>docs/bundle.md</code>; schema: <code>GET /management/v1/bundle-schema</code>
        </span>
      </div>
      <ErrorNote error={versions.error ?? schema.error ?? pulled.error} />
      {initial !== undefined && schema.value && (
        <>
          <BundleEditor
            key={`${version?.id}:${pulled.value?.version_tag}`}
            value={initial}
            schema={schema.value}
            onChange={setText}
            onProblems={setProblems}
          />
          <div data-testid="editor-problems" aria-live="polite">
            {problems.length === 0 ? (
              <p class="ok-note small">No problems found against the bundle schema.</p>
            ) : (
              <ul class="error small">
                {problems.map((p, i) => (
                  <li key={i}>
                    line {p.line}: {p.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
          <form
            class="row wrap"
            onSubmit={(e) => {
              e.preventDefault();
              void push();
            }}
          >
            <label class="grow">
              Revision message (optional)
              <input value={message} onInput={(e) => setMessage(e.currentTarget.value)} maxLength={1000} />
            </label>
            <button type="submit" disabled={busy || text === undefined || text === initial}>
              Push as a new revision of {pulled.value?.version_tag.replace(/\.\d+$/, '')}
            </button>
          </form>
        </>
      )}
      {pushed && (
        <p class="ok-note" data-testid="pushed">
          Pushed {pushed.version_tag} ({pushed.digest.slice(0, 19)}…). Publish it on the Versions page.
        </p>
      )}
      <ErrorNote error={error} />
    </div>
  );
}
