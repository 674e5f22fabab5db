import { createElement, type ComponentType } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, ManagementApi, MessagingAuth, passwordLogin, type ManagementCredential } from './api';
import { Chat } from './components/Chat';
import { ErrorNote } from './components/ErrorNote';
import type { PageEntry, PageProps } from './console';
import { Conversations, type Target } from './conversations';
import { projectLabel } from './labels';
import { session, type Credential } from './session';
import type { Agent, Project } from './types';

/**
 * The console's pages, in navigation order. Adding a page is one line here plus its module under `pages/`
 * (a default export taking PageProps, see console.ts).
 */
export const PAGES: PageEntry[] = [
  { path: 'chat', title: 'Chat', scope: 'agent', load: () => import('./pages/chat') },
  { path: 'threads', title: 'Threads', scope: 'agent', load: () => import('./pages/threads') },
  { path: 'agents', title: 'Agents', scope: 'project', load: () => import('./pages/agents') },
  { path: 'knowledge', title: 'Knowledge', scope: 'agent', load: () => import('./pages/knowledge') },
  { path: 'bundle', title: 'Bundle', scope: 'agent', load: () => import('./pages/bundle') },
  { path: 'versions', title: 'Versions', scope: 'agent', load: () => import('./pages/versions') },
  { path: 'evaluations', title: 'Evaluations', scope: 'agent', load: () => import('./pages/evaluations') },
  { path: 'analytics', title: 'Analytics', scope: 'agent', load: () => import('./pages/analytics') },
  { path: 'keys', title: 'Keys', scope: 'agent', load: () => import('./pages/keys') },
  { path: 'webhooks', title: 'Webhooks', scope: 'project', load: () => import('./pages/webhooks') },
  { path: 'projects', title: 'Projects', scope: 'organization', load: () => import('./pages/projects') },
];

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
  return credential.kind === 'publishable' ? (
    <PublishableConsole publishableKey={credential.key} onSignOut={signOut} />
  ) : (
    <Console credential={credential.kind === 'org' ? credential : { kind: 'session', token: credential.token }} onSignOut={signOut} />
  );
}

/** Sign-out revokes the publishable keys this tab minted, which also ends their tokens. */
async function revokeMintedKeys(credential: Credential): Promise<void> {
  if (credential.kind === 'publishable') return;
  const api = new ManagementApi(credential.kind === 'org' ? credential : { kind: 'session', token: credential.token });
  await Promise.allSettled(Object.entries(session.mintedKeys()).map(([agentId, key]) => api.deletePublishableKey(agentId, key.id)));
}

const SIGN_IN_KINDS = [
  { kind: 'org', title: 'Organization key' },
  { kind: 'session', title: 'Email and password' },
  { kind: 'publishable', title: 'Publishable key' },
] as const;

function SignIn({ onSignedIn }: { onSignedIn: (c: Credential) => void }) {
  const [kind, setKind] = useState<Credential['kind']>('org');
  const [key, setKey] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    const value = key.trim();
    try {
      // Check the credential before keeping it.
      if (kind === 'org') {
        await new ManagementApi({ kind: 'org', key: value }).projects();
        onSignedIn({ kind, key: value });
      } else if (kind === 'session') {
        const token = await passwordLogin(email.trim(), key);
        onSignedIn({ kind, token: token.access_token, email: email.trim(), expiresAt: Date.now() + (token.expires_in - 30) * 1000 });
      } else {
        await new MessagingAuth(value).exchange();
        onSignedIn({ kind, key: value });
      }
    } catch (err) {
      setError(
        err instanceof ApiError && (err.status === 401 || err.status === 400)
          ? new Error(kind === 'session' ? 'That email and password were not accepted.' : 'That key was not accepted.')
          : err,
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="signin">
      <form onSubmit={(e) => void submit(e)} data-testid="signin">
        <h1>Agent console</h1>
        <p class="muted">Build agents, give them knowledge, try them, publish them, and read their conversations.</p>
        <div class="tabs" role="tablist" aria-label="Sign in with">
          {SIGN_IN_KINDS.map((k) => (
            <button key={k.kind} type="button" role="tab" aria-selected={kind === k.kind} onClick={() => setKind(k.kind)}>
              {k.title}
            </button>
          ))}
        </div>
        {kind === 'session' && (
          <label>
            Email
            <input type="email" autocomplete="username" value={email} onInput={(e) => setEmail(e.currentTarget.value)} required />
          </label>
        )}
        <label>
          {kind === 'org' ? 'Organization API key' : kind === 'session' ? 'Password' : 'Publishable key (pk_…)'}
          <input
            type="password"
            autocomplete={kind === 'session' ? 'current-password' : 'off'}
            value={key}
            onInput={(e) => setKey(e.currentTarget.value)}
            name="key"
            aria-label={kind === 'session' ? 'Password' : 'Key'}
            required
          />
        </label>
        <div class="hint small" data-testid="key-hint">
          {kind === 'org' && (
            <>
              <p>
                Where is it? <code>npm start</code> prints it in the banner (“Org API key”) and keeps it in{' '}
                <code>.data/demo-org-api-key</code>; a container takes it from <code>BOOTSTRAP_ORG_API_KEY</code>. To make another
                organization: <code>npm run cli -- org:create --name NAME</code>.
              </p>
              <p>The key stays in this tab (sessionStorage) and is sent only to this service.</p>
            </>
          )}
          {kind === 'session' && (
            <p>
              A user of your organization, made with <code>npm run cli -- user:create --org ID --email EMAIL --password PASSWORD</code>.
            </p>
          )}
          {kind === 'publishable' && (
            <p>
              Chat with the one agent the key belongs to. A key is made on an agent's Keys page; threads and usage need a sign-in above.
            </p>
          )}
        </div>
        <ErrorNote error={error} />
        <button type="submit" disabled={busy || !key.trim() || (kind === 'session' && !email.trim())}>
          Sign in
        </button>
      </form>
    </main>
  );
}

function PublishableConsole({ publishableKey, onSignOut }: { publishableKey: string; onSignOut: () => void }) {
  const target = useMemo<Target>(
    () => ({ key: 'publishable', label: 'the agent', auth: new MessagingAuth(publishableKey) }),
    [publishableKey],
  );
  const conversations = useMemo(() => new Conversations(), []);
  return (
    <div class="shell chat-only">
      <header class="topbar">
        <h1>Agent console</h1>
        <span class="muted small">Signed in with a publishable key: chat only.</span>
        <button type="button" class="secondary signout" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main class="main" id="main">
        <Chat target={target} conversations={conversations} onTurn={() => undefined} />
      </main>
    </div>
  );
}

/** `#/knowledge` → the Knowledge page; anything else → Chat. */
function pageFromHash(): PageEntry {
  const path = location.hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return PAGES.find((p) => p.path === path) ?? PAGES[0]!;
}

/** The project picked last in this tab, else the demo project `npm start` makes, else the oldest. */
function defaultProject(projects: Project[]): Project | undefined {
  const remembered = session.project();
  return projects.find((p) => p.id === remembered) ?? projects.find((p) => p.name === 'Demo') ?? projects[0];
}

function Console({ credential, onSignOut }: { credential: ManagementCredential; onSignOut: () => void }) {
  const api = useMemo(() => new ManagementApi(credential), [credential.kind === 'org' ? credential.key : credential.token]);
  const conversations = useMemo(() => new Conversations(), []);
  const [page, setPage] = useState<PageEntry>(pageFromHash);
  const [projects, setProjects] = useState<Project[]>([]);
  const [projectId, setProjectId] = useState<string>();
  const [agents, setAgents] = useState<Agent[]>([]);
  const [agentId, setAgentId] = useState<string>();
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    const onHash = () => setPage(pageFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  async function reloadProjects(select?: string) {
    try {
      const list = (await api.projects()).results;
      setProjects(list);
      setProjectId((current) => (list.find((p) => p.id === (select ?? current)) ?? defaultProject(list))?.id);
    } catch (e) {
      setError(e);
    }
  }

  async function reloadAgents(select?: string) {
    if (!projectId) return;
    try {
      const list = (await api.agents(projectId)).results;
      setAgents(list);
      setAgentId((current) => (list.find((a) => a.id === (select ?? current)) ?? list.find((a) => a.live_version_id) ?? list[0])?.id);
    } catch (e) {
      setError(e);
    }
  }

  useEffect(() => void reloadProjects(), [api]);

  // The agents load when the project changes; an answer for an earlier project is dropped.
  useEffect(() => {
    let current = true;
    setAgents([]);
    setAgentId(undefined);
    if (projectId) {
      session.saveProject(projectId);
      api.agents(projectId).then((list) => {
        if (!current) return;
        setAgents(list.results);
        setAgentId((list.results.find((a) => a.live_version_id) ?? list.results[0])?.id);
      }, setError);
    }
    return () => {
      current = false;
    };
  }, [projectId]);

  const project = projects.find((p) => p.id === projectId);
  const agent = agents.find((a) => a.id === agentId);
  const go = (path: string) => {
    location.hash = `#/${path}`;
  };
  const props: PageProps = { api, project, agent, reloadProjects, reloadAgents, go, conversations };

  let body;
  if (page.scope !== 'organization' && !project) {
    body = <Empty title="No project yet" text="Make one on the Projects page." action={['Projects', 'projects']} go={go} />;
  } else if (page.scope === 'agent' && !agent) {
    body = (
      <Empty title="No agent yet" text="Make one on the Agents page, from a template or empty." action={['Agents', 'agents']} go={go} />
    );
  } else {
    body = <PageLoader entry={page} props={props} />;
  }

  return (
    <div class="shell">
      <header class="topbar">
        <h1>Agent console</h1>
        <label class="picker">
          Project
          <select value={projectId} onChange={(e) => setProjectId(e.currentTarget.value)} aria-label="Project">
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {projectLabel(p, projects)}
              </option>
            ))}
          </select>
        </label>
        <label class="picker">
          Agent
          <select value={agentId} onChange={(e) => setAgentId(e.currentTarget.value)} aria-label="Agent">
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.runtime}
                {a.live_version_tag ? ` · live ${a.live_version_tag}` : ' · not published'})
              </option>
            ))}
          </select>
        </label>
        <button type="button" class="secondary signout" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <nav class="nav" aria-label="Console pages">
        <ul>
          {PAGES.map((p) => (
            <li key={p.path}>
              <a href={`#/${p.path}`} aria-current={p === page ? 'page' : undefined}>
                {p.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main class="main" id="main">
        <ErrorNote error={error} />
        {body}
      </main>
    </div>
  );
}

function Empty({ title, text, action, go }: { title: string; text: string; action: [string, string]; go: (page: string) => void }) {
  return (
    <div class="empty">
      <h2>{title}</h2>
      <p class="muted">{text}</p>
      <button type="button" onClick={() => go(action[1])}>
        {action[0]}
      </button>
    </div>
  );
}

/** Loads a page's module the first time it is shown, then renders it with the console's props. */
function PageLoader({ entry, props }: { entry: PageEntry; props: PageProps }) {
  const [loaded, setLoaded] = useState<{ entry: PageEntry; component: ComponentType<PageProps> }>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    let current = true;
    setError(undefined);
    entry.load().then(
      (module) => current && setLoaded({ entry, component: module.default }),
      (e: unknown) => current && setError(e),
    );
    return () => {
      current = false;
    };
  }, [entry]);
  if (error) return <ErrorNote error={error} />;
  if (!loaded || loaded.entry !== entry) return <p class="muted">Loading…</p>;
  // Keyed by agent: a page starts afresh when another agent is picked.
  return createElement(loaded.component, { ...props, key: `${entry.path}:${props.project?.id ?? ''}:${props.agent?.id ?? ''}` });
}
