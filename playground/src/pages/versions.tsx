import { useState } from 'preact/hooks';
import { ErrorNote } from '../components/ErrorNote';
import type { PageProps } from '../console';
import { canonicalJson, lineDiff, withContext, type DiffBlock } from '../diff';
import { useLoad } from '../load';
import type { Traffic, Version } from '../types';
import { versionLabel, versionTree } from '../versions';

/**
 * Versions and their revisions (each listed once, every one pickable for a diff or a pull), publish and archive,
 * a new version (empty, from a template, or a clone), a diff between any two revisions, and the traffic split.
 */
export default function VersionsPage({ api, agent, reloadAgents }: PageProps) {
  const agentId = agent!.id;
  const [listing, reload] = useLoad(() => api.versions(agentId), [agentId]);
  const [templates] = useLoad(() => api.templates(), []);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const tree = versionTree(listing.value?.results ?? [], agent!.live_version_tag);
  const tags = tree.flatMap((entry) => entry.revisions.map((r) => ({ ...r, version: entry.version })));

  async function act(action: () => Promise<unknown>) {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      reload();
      await reloadAgents(agentId);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="page">
      <h2>Versions</h2>
      <NewVersion
        templates={templates.value?.results ?? []}
        versions={tree.map((t) => t.version)}
        busy={busy}
        onCreate={(body) => act(() => api.createVersion(agentId, body))}
      />
      <ErrorNote error={error ?? listing.error} />
      <ul class="items versions" data-testid="version-list">
        {tree.map(({ version, revisions }) => (
          <li key={version.id} class="version">
            <div class="row wrap between">
              <div>
                <strong>{versionLabel(version, agent!.live_version_id)}</strong>
                <span class="muted small"> · current {version.version_tag}</span>
              </div>
              <div class="row wrap">
                {/* Publishing ships the version's current revision: offered unless that one is already live. */}
                {version.status !== 'archived' && !revisions.some((r) => r.live && r.current) && (
                  <button type="button" disabled={busy} onClick={() => void act(() => api.publish(agentId, version.id))}>
                    Publish {version.version_tag}
                  </button>
                )}
                {version.status !== 'archived' && version.id !== agent!.live_version_id && (
                  <button type="button" class="secondary" disabled={busy} onClick={() => void act(() => api.archive(agentId, version.id))}>
                    Archive
                  </button>
                )}
              </div>
            </div>
            <ol class="revisions">
              {revisions.map((r) => (
                <li key={r.tag} data-testid="revision">
                  <code>{r.tag}</code>
                  {r.live && <span class="badge live">live</span>}
                  {r.current && <span class="badge">current</span>}
                  <span class="muted small">
                    {' '}
                    {r.tag.endsWith('.0') ? 'starting content' : (r.message ?? '')} · {new Date(r.item.created_at).toLocaleString()}
                  </span>
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ul>
      {tags.length > 1 && <Diff api={api} agentId={agentId} tags={tags.map((t) => ({ tag: t.tag, versionId: t.version.id }))} />}
      <TrafficSplit
        api={api}
        agentId={agentId}
        liveVersionId={agent!.live_version_id}
        published={tree.map((t) => t.version).filter((v) => v.status === 'published')}
      />
    </div>
  );
}

function NewVersion({
  templates,
  versions,
  busy,
  onCreate,
}: {
  templates: Array<{ id: string; name: string; runtime: string }>;
  versions: Version[];
  busy: boolean;
  onCreate: (body: { source: 'empty' | 'template' | 'clone'; template?: string; from_version_id?: string }) => Promise<void>;
}) {
  const [source, setSource] = useState('empty');
  return (
    <form
      class="row wrap panel"
      onSubmit={(e) => {
        e.preventDefault();
        const [kind, id] = source.split(':') as ['empty' | 'template' | 'clone', string | undefined];
        void onCreate(
          kind === 'template'
            ? { source: kind, template: id }
            : kind === 'clone'
              ? { source: kind, from_version_id: id }
              : { source: kind },
        );
      }}
    >
      <label class="grow">
        New version from
        <select value={source} onChange={(e) => setSource(e.currentTarget.value)} aria-label="New version from">
          <option value="empty">an empty bundle</option>
          {versions.map((v) => (
            <option key={v.id} value={`clone:${v.id}`}>
              a copy of version {v.number} ({v.version_tag})
            </option>
          ))}
          {templates.map((t) => (
            <option key={t.id} value={`template:${t.id}`}>
              template {t.name} ({t.runtime})
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={busy}>
        Create version
      </button>
    </form>
  );
}

/** Any two revisions of the agent, compared as canonical JSON. */
function Diff({ api, agentId, tags }: { api: PageProps['api']; agentId: string; tags: Array<{ tag: string; versionId: string }> }) {
  const [from, setFrom] = useState(tags[1]!.tag);
  const [to, setTo] = useState(tags[0]!.tag);
  const [blocks, setBlocks] = useState<DiffBlock[]>();
  const [error, setError] = useState<unknown>();

  async function compare(e: Event) {
    e.preventDefault();
    setError(undefined);
    try {
      const pull = (tag: string) => api.pull(agentId, tags.find((t) => t.tag === tag)!.versionId, tag);
      const [a, b] = await Promise.all([pull(from), pull(to)]);
      setBlocks(withContext(lineDiff(canonicalJson(a.bundle).split('\n'), canonicalJson(b.bundle).split('\n'))));
    } catch (err) {
      setError(err);
    }
  }

  const select = (value: string, set: (tag: string) => void, label: string) => (
    <label>
      {label}
      <select value={value} onChange={(e) => set(e.currentTarget.value)}>
        {tags.map((t) => (
          <option key={t.tag} value={t.tag}>
            {t.tag}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <section class="panel" aria-label="Compare revisions">
      <h3>Compare revisions</h3>
      <form class="row wrap" onSubmit={(e) => void compare(e)}>
        {select(from, setFrom, 'From')}
        {select(to, setTo, 'To')}
        <button type="submit">Compare</button>
      </form>
      <ErrorNote error={error} />
      {blocks && (
        <pre class="diff" data-testid="diff" tabIndex={0} aria-label="Differences">
          {blocks.every((b) => b.kind === 'skipped') && <span class="muted">The two revisions have the same bundle.</span>}
          {blocks.map((block, i) =>
            block.kind === 'skipped' ? (
              <span key={i} class="skipped">
                {`… ${block.count} unchanged line${block.count === 1 ? '' : 's'}\n`}
              </span>
            ) : (
              block.lines.map((line, j) => (
                <span key={`${i}:${j}`} class={line.op === '+' ? 'added' : line.op === '-' ? 'removed' : ''}>
                  {`${line.op} ${line.text}\n`}
                </span>
              ))
            ),
          )}
        </pre>
      )}
    </section>
  );
}

/** A share of new end users per published version (docs/releases.md); the live version must be one arm. */
function TrafficSplit({
  api,
  agentId,
  liveVersionId,
  published,
}: {
  api: PageProps['api'];
  agentId: string;
  liveVersionId: string | null;
  published: Version[];
}) {
  const [traffic, reload] = useLoad<Traffic>(() => api.traffic(agentId), [agentId]);
  const [shares, setShares] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const current = new Map(traffic.value?.splits.map((s) => [s.version_id, s.percent]));
  const share = (id: string) => shares[id] ?? String(current.get(id) ?? (id === liveVersionId && current.size === 0 ? 100 : 0));

  async function save(e: Event) {
    e.preventDefault();
    setError(undefined);
    try {
      const splits = published.map((v) => ({ version_id: v.id, percent: Number(share(v.id)) })).filter((s) => s.percent > 0);
      await api.setTraffic(agentId, splits);
      setShares({});
      reload();
    } catch (err) {
      setError(err);
    }
  }

  async function end() {
    setError(undefined);
    try {
      await api.endTraffic(agentId);
      setShares({});
      reload();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <section class="panel" aria-label="Traffic split">
      <h3>Traffic split</h3>
      <p class="muted small">
        {traffic.value?.splits.length
          ? `New end users are shared out: ${traffic.value.splits.map((s) => `${s.version_tag} ${s.percent}%`).join(', ')}. Each keeps the version they got.`
          : 'The live version answers everyone. Share new end users between published versions (the live one included) to try a candidate.'}
      </p>
      {published.length < 2 ? (
        <p class="muted small">A split needs at least two published versions.</p>
      ) : (
        <form onSubmit={(e) => void save(e)}>
          <div class="row wrap">
            {published.map((v) => (
              <label key={v.id}>
                Version {v.number}
                {v.id === liveVersionId ? ' (live)' : ''} %
                <input
                  type="number"
                  min={0}
                  max={100}
                  step={1}
                  value={share(v.id)}
                  onInput={(e) => setShares({ ...shares, [v.id]: e.currentTarget.value })}
                />
              </label>
            ))}
          </div>
          <div class="row">
            <button type="submit">Save split</button>
            {traffic.value?.splits.length ? (
              <button type="button" class="secondary" onClick={() => void end()}>
                End the split
              </button>
            ) : null}
          </div>
        </form>
      )}
      <ErrorNote error={error ?? traffic.error} />
    </section>
  );
}
