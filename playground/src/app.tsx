import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, ManagementApi, MessagingAuth } from './api';
import { Chat } from './components/Chat';
import { Threads } from './components/Threads';
import { session, type Credential } from './session';
import type { Agent, Project, Usage, Version } from './types';
import { AnalyticsPage } from './pages/analytics';
import { EvaluationsPage } from './pages/evaluations';

/** What the chat talks to: the agent that answers (a draft's preview agent when trying a draft) and its key. */
interface Target {
  /** A new conversation per start, even with the same agent again. */
  id: number;
  agent?: Agent;
  label: string;
  auth: MessagingAuth;
}

export function App() {
  const [credential, setCredential] = useState<Credential | undefined>(session.credential);
  if (!credential) {
    return (
      <SignIn
        onSignedIn={(c) => {
          session.saveCredential(c);
          setCredential(c);
        }}
      />
    );
  }
  const signOut = () => {
    void revokeMintedKeys(credential).finally(() => {
      session.clear();
      setCredential(undefined);
    });
  };
  return credential.kind === 'org' ? (
    <Console orgKey={credential.key} onSignOut={signOut} />
  ) : (
    <PublishableConsole publishableKey={credential.key} onSignOut={signOut} />
  );
}

/** Sign-out revokes the publishable keys this tab minted, which also ends their tokens. */
async function revokeMintedKeys(credential: Credential): Promise<void> {
  if (credential.kind !== 'org') return;
  const api = new ManagementApi(credential.key);
  await Promise.allSettled(Object.entries(session.mintedKeys()).map(([agentId, key]) => api.deletePublishableKey(agentId, key.id)));
}

function SignIn({ onSignedIn }: { onSignedIn: (c: Credential) => void }) {
  const [kind, setKind] = useState<Credential['kind']>('org');
  const [key, setKey] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    const value = key.trim();
    try {
      // Check the credential before keeping it.
      if (kind === 'org') await new ManagementApi(value).projects();
      else await new MessagingAuth(value).exchange();
      onSignedIn({ kind, key: value });
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? 'That key was not accepted.' : (err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="signin">
      <form onSubmit={(e) => void submit(e)} data-testid="signin">
        <h1>Agent playground</h1>
        <p class="muted">Talk to your agents, see their cards and how they reasoned.</p>
        <div class="tabs" role="tablist">
          <button type="button" role="tab" aria-selected={kind === 'org'} onClick={() => setKind('org')}>
            Organization API key
          </button>
          <button type="button" role="tab" aria-selected={kind === 'publishable'} onClick={() => setKind('publishable')}>
            Publishable key
          </button>
        </div>
        <label>
          {kind === 'org' ? 'Organization API key' : 'Publishable key (pk_…)'}
          <input
            type="password"
            autocomplete="off"
            value={key}
            onInput={(e) => setKey(e.currentTarget.value)}
            name="key"
            aria-label="Key"
            required
          />
        </label>
        <p class="muted small">
          {kind === 'org'
            ? 'Projects, agents, drafts, threads and usage. The key stays in this tab (sessionStorage) and is sent only to this service.'
            : 'Chat with the one agent the key belongs to. Threads and usage need an organization key.'}
        </p>
        {error && <p class="error">{error}</p>}
        <button type="submit" disabled={busy || !key.trim()}>
          Sign in
        </button>
      </form>
    </main>
  );
}

function Shell({ side, main, onSignOut }: { side: preact.ComponentChildren; main: preact.ComponentChildren; onSignOut: () => void }) {
  return (
    <div class="shell">
      <aside class="sidebar">
        <h1>Agent playground</h1>
        {side}
        <button type="button" class="secondary signout" onClick={onSignOut}>
          Sign out
        </button>
      </aside>
      <main class="main">{main}</main>
    </div>
  );
}

function PublishableConsole({ publishableKey, onSignOut }: { publishableKey: string; onSignOut: () => void }) {
  const auth = useMemo(() => new MessagingAuth(publishableKey), [publishableKey]);
  return (
    <Shell
      onSignOut={onSignOut}
      side={<p class="muted small">Signed in with a publishable key: chat only. Sign in with an organization key for threads and usage.</p>}
      main={<Chat auth={auth} title="the agent" onTurn={() => undefined} />}
    />
  );
}

function Console({ orgKey, onSignOut }: { orgKey: string; onSignOut: () => void }) {
  const api = useMemo(() => new ManagementApi(orgKey), [orgKey]);
  const [projects, setProjects] = useState<Project[]>([]);
  const [projectId, setProjectId] = useState<string>();
  const [agents, setAgents] = useState<Agent[]>([]);
  const [agentId, setAgentId] = useState<string>();
  const [versions, setVersions] = useState<Version[]>([]);
  const [versionId, setVersionId] = useState<string>();
  const [target, setTarget] = useState<Target>();
  const [tab, setTab] = useState<'chat' | 'threads' | 'evaluations' | 'analytics'>('chat');
  const [usage, setUsage] = useState<Usage>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const report = (e: unknown) => setError((e as Error).message);

  useEffect(() => {
    api.projects().then((page) => {
      setProjects(page.results);
      setProjectId(page.results[0]?.id);
    }, report);
  }, [api]);

  // Each list loads when the choice above it changes; an answer for an earlier choice is dropped.
  useEffect(() => {
    let current = true;
    setAgents([]);
    setAgentId(undefined);
    if (projectId) {
      api.agents(projectId).then((page) => {
        if (!current) return;
        setAgents(page.results);
        setAgentId((page.results.find((a) => a.live_version_id) ?? page.results[0])?.id);
      }, report);
    }
    return () => {
      current = false;
    };
  }, [projectId]);

  const agent = agents.find((a) => a.id === agentId);
  useEffect(() => {
    let current = true;
    setVersions([]);
    setVersionId(undefined);
    if (agentId) {
      api.versions(agentId).then((page) => {
        if (!current) return;
        const usable = page.results.filter((v) => v.is_live || v.status === 'draft');
        setVersions(usable);
        setVersionId((usable.find((v) => v.is_live) ?? usable[0])?.id);
      }, report);
    }
    return () => {
      current = false;
    };
  }, [agentId]);

  const version = versions.find((v) => v.id === versionId);
  const chatAgent = target?.agent;
  const refreshUsage = () => {
    if (chatAgent) api.usage(chatAgent.id).then(setUsage, report);
  };
  useEffect(refreshUsage, [chatAgent?.id]);

  /** A publishable key for the agent, minted once per tab (restricted to this origin) and revoked at sign-out. */
  async function messagingAuth(forAgent: Agent): Promise<MessagingAuth> {
    const minted = session.mintedKeys()[forAgent.id];
    if (minted) {
      const auth = new MessagingAuth(minted.key);
      try {
        await auth.exchange();
        return auth;
      } catch {
        session.saveMintedKey(forAgent.id, undefined); // revoked meanwhile: mint another
      }
    }
    const created = await api.createPublishableKey(forAgent.id);
    session.saveMintedKey(forAgent.id, { id: created.id, key: created.publishable_key });
    return new MessagingAuth(created.publishable_key);
  }

  async function start() {
    if (!agent || !version) return;
    setBusy(true);
    setError(undefined);
    try {
      const answering = version.is_live ? agent : await api.previewDraft(agent, version);
      const label = `${agent.name} · ${version.version_tag}${version.is_live ? '' : ' (draft preview)'}`;
      setTarget({ id: Date.now(), agent: answering, label, auth: await messagingAuth(answering) });
      setTab('chat');
    } catch (e) {
      report(e);
    } finally {
      setBusy(false);
    }
  }

  const side = (
    <>
      <label>
        Project
        <select value={projectId} onChange={(e) => setProjectId(e.currentTarget.value)} aria-label="Project">
          {projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Agent
        <select value={agentId} onChange={(e) => setAgentId(e.currentTarget.value)} aria-label="Agent">
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} ({a.runtime})
            </option>
          ))}
        </select>
      </label>
      <label>
        Version
        <select value={versionId} onChange={(e) => setVersionId(e.currentTarget.value)} aria-label="Version">
          {versions.map((v) => (
            <option key={v.id} value={v.id}>
              {v.version_tag} · {v.is_live ? 'live' : v.status}
              {v.label ? ` · ${v.label}` : ''}
            </option>
          ))}
        </select>
      </label>
      {agent && versions.length === 0 && <p class="muted small">This agent has no live version or draft yet.</p>}
      {version && !version.is_live && (
        <p class="muted small">
          Messaging answers with an agent's live version only, so a draft is tried on a preview agent in this project (“{agent?.name} (draft
          preview)”), made once and updated each time.
        </p>
      )}
      <button type="button" onClick={() => void start()} disabled={busy || !version} data-testid="start-chat">
        {busy ? 'Connecting…' : 'Chat with this version'}
      </button>
      {error && <p class="error">{error}</p>}
      {chatAgent && usage && (
        <section class="usage" data-testid="usage">
          <h3>Usage · {chatAgent.name}</h3>
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
  );

  const main = target ? (
    <>
      <nav class="tabs" role="tablist">
        <span class="target">{target.label}</span>
        <button type="button" role="tab" aria-selected={tab === 'chat'} onClick={() => setTab('chat')}>
          Chat
        </button>
        <button type="button" role="tab" aria-selected={tab === 'threads'} onClick={() => setTab('threads')}>
          Threads
        </button>
        <button type="button" role="tab" aria-selected={tab === 'evaluations'} onClick={() => setTab('evaluations')}>
          Evaluations
        </button>
        <button type="button" role="tab" aria-selected={tab === 'analytics'} onClick={() => setTab('analytics')}>
          Analytics
        </button>
      </nav>
      <div hidden={tab !== 'chat'} class="tab-body">
        <Chat key={target.id} auth={target.auth} title={target.label} onTurn={refreshUsage} />
      </div>
      {tab === 'threads' && target.agent && (
        <div class="tab-body">
          <Threads api={api} agent={target.agent} />
        </div>
      )}
      {tab === 'evaluations' && agent && (
        <div class="tab-body">
          <EvaluationsPage api={api} agent={agent} />
        </div>
      )}
      {tab === 'analytics' && agent && (
        <div class="tab-body">
          <AnalyticsPage api={api} agent={agent} />
        </div>
      )}
    </>
  ) : (
    <div class="empty">
      <h2>Pick an agent and a version</h2>
      <p class="muted">Then “Chat with this version”. Replies stream in; each one's trace opens beside the conversation.</p>
    </div>
  );

  return <Shell side={side} main={main} onSignOut={onSignOut} />;
}
