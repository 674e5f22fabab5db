import { useEffect, useState } from 'preact/hooks';
import { MessagingAuth, type ManagementApi } from '../api';
import { Chat } from '../components/Chat';
import { ErrorNote } from '../components/ErrorNote';
import type { PageProps } from '../console';
import type { Target } from '../conversations';
import { session } from '../session';
import type { Agent, Usage } from '../types';
import { versionLabel, versionTree, type VersionEntry } from '../versions';

/** A publishable key for the agent, minted once per tab (restricted to this origin) and revoked at sign-out. */
async function messagingAuth(api: ManagementApi, agent: Agent): Promise<MessagingAuth> {
  const minted = session.mintedKeys()[agent.id];
  if (minted) {
    const auth = new MessagingAuth(minted.key);
    try {
      await auth.exchange();
      return auth;
    } catch {
      session.saveMintedKey(agent.id, undefined); // revoked meanwhile: mint another
    }
  }
  const created = await api.createPublishableKey(agent.id, { allowed_origins: [location.origin] });
  session.saveMintedKey(agent.id, { id: created.id, key: created.publishable_key });
  return new MessagingAuth(created.publishable_key);
}

/**
 * Chat with any version or revision of the agent: the live revision answers as the agent itself; any other is
 * copied onto the agent's preview agent (docs/playground.md, "Trying a version") and answers there.
 */
export default function ChatPage({ api, agent, conversations }: PageProps) {
  const [tree, setTree] = useState<VersionEntry[]>([]);
  const [tag, setTag] = useState<string>();
  const [target, setTarget] = useState<Target | undefined>(conversations.current);
  const [usage, setUsage] = useState<Usage>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  /** Bumped by "New conversation": the chat starts over with the same target. */
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    api.versions(agent!.id).then((page) => {
      const entries = versionTree(page.results, agent!.live_version_tag);
      setTree(entries);
      const current = conversations.current?.key.startsWith(`${agent!.id}:`) ? conversations.current.key.split(':')[1] : undefined;
      setTag(current ?? agent!.live_version_tag ?? entries[0]?.revisions[0]?.tag);
    }, setError);
  }, [agent!.id]);

  const chatAgent = target?.agent;
  const refreshUsage = () => {
    if (chatAgent) api.usage(chatAgent.id).then(setUsage, setError);
  };
  useEffect(refreshUsage, [chatAgent?.id]);

  const picked = tree.flatMap((v) => v.revisions).find((r) => r.tag === tag);

  async function start(fresh: boolean) {
    if (!agent || !picked) return;
    setBusy(true);
    setError(undefined);
    try {
      const key = `${agent.id}:${picked.tag}`;
      const live = picked.tag === agent.live_version_tag;
      const answering = live ? agent : await api.preview(agent, picked.item);
      const next: Target = {
        key,
        agent: answering,
        label: `${agent.name} · ${picked.tag}${live ? '' : ' (preview)'}`,
        auth: await messagingAuth(api, answering),
      };
      if (fresh) {
        conversations.forget(next);
        setGeneration((n) => n + 1);
      }
      conversations.current = next;
      setTarget(next);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  const showing = target && target.key.startsWith(`${agent!.id}:`) ? target : undefined;
  return (
    <div class="page chat-page">
      <div class="toolbar">
        <label>
          Version
          <select value={tag} onChange={(e) => setTag(e.currentTarget.value)} aria-label="Version">
            {tree.map((entry) => (
              <optgroup key={entry.version.id} label={versionLabel(entry.version, agent!.live_version_id)}>
                {entry.revisions.map((r) => (
                  <option key={r.tag} value={r.tag}>
                    {r.tag}
                    {r.live ? ' · live' : ''}
                    {r.current && !r.live ? ' · current' : ''}
                    {r.message ? ` · ${r.message.slice(0, 60)}` : ''}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void start(false)} disabled={busy || !picked} data-testid="start-chat">
          {busy ? 'Connecting…' : 'Chat with this version'}
        </button>
        {showing && (
          <button type="button" class="secondary" onClick={() => void start(true)} disabled={busy}>
            New conversation
          </button>
        )}
      </div>
      {picked && !picked.live && (
        <p class="muted small">
          Messaging answers with an agent's live version only, so {picked.tag} is tried on a preview agent in this project (“{agent!.name}{' '}
          (draft preview)”), made once and updated each time.
        </p>
      )}
      {tree.length === 0 && <p class="muted">This agent has no version yet: make one on the Versions page.</p>}
      <ErrorNote error={error} />
      {showing ? (
        <>
          <p class="target" data-testid="chat-target">
            {showing.label}
          </p>
          <Chat key={`${showing.key}:${generation}`} target={showing} conversations={conversations} onTurn={refreshUsage} />
          {usage && chatAgent && (
            <section class="usage" data-testid="usage" aria-label="Usage">
              <h2 class="panel-title">Usage · {chatAgent.name}</h2>
              <dl>
                <div>
                  <dt>Interactions</dt>
                  <dd>{usage.interaction_count}</dd>
                </div>
                <div>
                  <dt>Input tokens</dt>
                  <dd>{usage.input_tokens}</dd>
                </div>
                <div>
                  <dt>Output tokens</dt>
                  <dd>{usage.output_tokens}</dd>
                </div>
                <div>
                  <dt>Total tokens</dt>
                  <dd>{usage.total_tokens}</dd>
                </div>
              </dl>
            </section>
          )}
        </>
      ) : (
        <div class="empty">
          <h2>Pick a version</h2>
          <p class="muted">Then “Chat with this version”. Replies stream in; each one's trace opens beside the conversation.</p>
        </div>
      )}
    </div>
  );
}
