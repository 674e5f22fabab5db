import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNote } from '../components/ErrorNote';
import type { PageProps } from '../console';
import { useLoad } from '../load';
import type { KnowledgeSearch, KnowledgeUpload, Version } from '../types';
import { versionLabel } from '../versions';

interface Document {
  id: string;
  title: string;
  url?: string;
  text: string;
}

const ACCEPT = '.md,.markdown,.html,.htm,.txt,text/markdown,text/html,text/plain';

/**
 * A version's knowledge: drop Markdown, HTML or text files (each upload a new revision; the API's per-file errors
 * shown as it gives them), read the documents they became, ask a question to see what would be retrieved, publish.
 */
export default function KnowledgePage({ api, agent, reloadAgents }: PageProps) {
  const agentId = agent!.id;
  const [round, setRound] = useState(0);
  const [versions] = useLoad(() => api.versions(agentId), [agentId, round]);
  const editable = (versions.value?.results ?? [])
    .filter((v) => !v.is_revision && v.status !== 'archived')
    .sort((a, b) => b.number - a.number);
  const [versionId, setVersionId] = useState<string>();
  const version = editable.find((v) => v.id === versionId) ?? editable[0];
  const [pulled] = useLoad(() => (version ? api.pull(agentId, version.id) : Promise.resolve(undefined)), [version?.id, round]);
  const [upload, setUpload] = useState<KnowledgeUpload>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState<string>();
  const [dragging, setDragging] = useState(false);
  const [question, setQuestion] = useState('');
  const [search, setSearch] = useState<KnowledgeSearch>();
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => setSearch(undefined), [version?.id, round]);

  const documents = ((pulled.value?.bundle.knowledge as Document[] | undefined) ?? []).filter((d) => d && typeof d.id === 'string');
  const fresh = new Set(upload?.documents.map((d) => d.id));

  async function act<T>(label: string, action: () => Promise<T>): Promise<T | undefined> {
    setBusy(label);
    setError(undefined);
    try {
      return await action();
    } catch (e) {
      setError(e);
      return undefined;
    } finally {
      setBusy(undefined);
    }
  }

  async function send(files: File[]) {
    if (!version || files.length === 0) return;
    const result = await act('Uploading…', () => api.uploadKnowledge(agentId, version.id, files));
    if (result) {
      setUpload(result);
      setRound((n) => n + 1);
    }
  }

  async function remove(documentId: string) {
    if (!version) return;
    if (await act('Removing…', () => api.removeKnowledge(agentId, version.id, documentId))) setRound((n) => n + 1);
  }

  async function ask(e: Event) {
    e.preventDefault();
    if (!version || !question.trim()) return;
    const result = await act('Searching…', () => api.searchKnowledge(agentId, version.id, question.trim()));
    if (result) setSearch(result);
  }

  async function publish(v: Version) {
    if (await act('Publishing…', () => api.publish(agentId, v.id))) {
      await reloadAgents(agentId);
    }
  }

  return (
    <div class="page">
      <h2>Knowledge</h2>
      {agent!.runtime === 'v1' && (
        <p class="muted">
          This is a v1 (decisioning) agent: it answers from its catalog, tools and rules. Knowledge documents are read by v2 agents.
        </p>
      )}
      <div class="toolbar">
        <label>
          Version
          <select value={version?.id} onChange={(e) => setVersionId(e.currentTarget.value)} aria-label="Version">
            {editable.map((v) => (
              <option key={v.id} value={v.id}>
                {versionLabel(v, agent!.live_version_id)} · {v.version_tag}
              </option>
            ))}
          </select>
        </label>
        {version && (
          <button type="button" onClick={() => void publish(version)} disabled={!!busy} data-testid="publish">
            Publish {pulled.value?.version_tag ?? version.version_tag}
          </button>
        )}
        {agent!.live_version_tag && <span class="muted small">live: {agent!.live_version_tag}</span>}
      </div>
      {editable.length === 0 && !versions.loading && <p class="muted">No version to add knowledge to: make one on the Versions page.</p>}
      {version && (
        <div
          class={`dropzone${dragging ? ' dragging' : ''}`}
          data-testid="dropzone"
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            void send([...(e.dataTransfer?.files ?? [])]);
          }}
        >
          <p>
            <strong>Drop Markdown, HTML or text files here</strong>
          </p>
          <p class="muted small">
            Each file becomes documents, one per h1–h3 section; a file dropped again replaces what it made before. Up to 20 files, 2 MiB
            each.
          </p>
          <input
            ref={fileInput}
            type="file"
            multiple
            accept={ACCEPT}
            class="visually-hidden"
            aria-label="Files to upload"
            tabIndex={-1}
            onChange={(e) => {
              void send([...(e.currentTarget.files ?? [])]);
              e.currentTarget.value = '';
            }}
          />
          <button type="button" class="secondary" onClick={() => fileInput.current?.click()} disabled={!!busy}>
            Choose files
          </button>
          {busy && <p class="muted">{busy}</p>}
        </div>
      )}
      <ErrorNote error={error ?? versions.error ?? pulled.error} />
      {upload && (
        <p class="ok-note" data-testid="upload-result">
          {upload.version_tag}: {upload.documents.length} document{upload.documents.length === 1 ? '' : 's'} from the files
          {upload.replaced.length ? `, replacing ${upload.replaced.length} from an earlier upload` : ''}.
        </p>
      )}
      <div class="two-columns">
        <section aria-label="Documents">
          <h3>
            Documents{' '}
            {pulled.value && (
              <span class="muted">
                · {pulled.value.version_tag} · {documents.length}
              </span>
            )}
          </h3>
          {documents.length === 0 && pulled.value && <p class="muted">No documents yet.</p>}
          <ul class="items documents" data-testid="documents">
            {documents.map((d) => (
              <li key={d.id}>
                <details>
                  <summary>
                    <strong>{d.title}</strong> {fresh.has(d.id) && <span class="badge new">new</span>}
                    <span class="muted small">
                      {' '}
                      {d.id} · {d.text.length} characters
                    </span>
                  </summary>
                  <blockquote class="preview" tabIndex={0}>
                    {d.text}
                  </blockquote>
                </details>
                <button type="button" class="link danger-link" onClick={() => void remove(d.id)} aria-label={`Remove ${d.title}`}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        </section>
        <section aria-label="Try a question">
          <h3>Try a question</h3>
          <p class="muted small">
            What the agent would retrieve from {pulled.value?.version_tag ?? 'this version'} for a question, before you publish.
          </p>
          <form class="row" onSubmit={(e) => void ask(e)}>
            <input
              class="grow"
              value={question}
              onInput={(e) => setQuestion(e.currentTarget.value)}
              placeholder="How do I reset my password?"
              aria-label="Question"
              maxLength={2000}
            />
            <button type="submit" disabled={!question.trim() || !!busy}>
              Search
            </button>
          </form>
          {search && (
            <div data-testid="retrieval">
              <p class={search.answerable ? 'ok-note' : 'muted'}>
                {search.answerable
                  ? `The agent would answer from these passages (${search.version_tag}).`
                  : `The agent would decline: nothing answers the question well enough (${search.version_tag}).`}
              </p>
              <ol class="hits">
                {search.results.map((hit) => (
                  <li key={hit.passage_id}>
                    <strong>{hit.title}</strong> <span class="muted small">score {hit.score}</span>
                    <blockquote>{hit.text}</blockquote>
                  </li>
                ))}
              </ol>
              {!search.answerable && search.considered.length > 0 && (
                <p class="muted small">Closest documents: {search.considered.map((c) => c.title).join(', ')}</p>
              )}
              <p class="muted small">{search.narrative}</p>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
