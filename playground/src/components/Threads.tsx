import { useEffect, useState } from 'preact/hooks';
import type { ManagementApi } from '../api';
import type { Agent, Page, ThreadItem, ThreadMessage, Trace } from '../types';
import { CardView } from './Card';
import { ReplyText } from './text';
import { TraceView } from './Trace';

interface Filters {
  user_id: string;
  tool: string;
  rule: string;
  param: string;
  created: string;
}

const EMPTY: Filters = { user_id: '', tool: '', rule: '', param: '', created: '' };

/** The management thread list of one agent with its filters, and a thread's transcript with each reply's trace. */
export function Threads({ api, agent }: { api: ManagementApi; agent: Agent }) {
  const runtimeVersion = agent.runtime === 'v2' ? '2' : '1';
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState<Page<ThreadItem>>();
  const [error, setError] = useState<string>();
  const [open, setOpen] = useState<ThreadItem>();

  async function load(link?: string) {
    setError(undefined);
    try {
      setPage(
        link
          ? await api.follow<Page<ThreadItem>>(link)
          : await api.threads({
              agent_id: agent.id,
              runtime_version: runtimeVersion,
              user_id: filters.user_id,
              tool: filters.tool,
              rule: filters.rule,
              param: filters.param,
              created: filters.created ? new Date(filters.created).toISOString() : undefined,
            }),
      );
    } catch (e) {
      setError((e as Error).message);
    }
  }

  useEffect(() => {
    setOpen(undefined);
    void load();
  }, [agent.id]);

  const field = (name: keyof Filters, label: string, placeholder: string) => (
    <label>
      {label}
      <input value={filters[name]} placeholder={placeholder} onInput={(e) => setFilters({ ...filters, [name]: e.currentTarget.value })} />
    </label>
  );

  return (
    <div class="threads-layout">
      <section class="thread-list">
        <form
          class="filters"
          onSubmit={(e) => {
            e.preventDefault();
            void load();
          }}
        >
          {field('user_id', 'End user', 'user id')}
          {field('tool', 'Tool', 'catalog_search')}
          {field('rule', 'Rule', 'code or code:fired')}
          {field('param', 'Parameter', 'budget>=50')}
          <label>
            Created since
            <input
              type="datetime-local"
              value={filters.created}
              onInput={(e) => setFilters({ ...filters, created: e.currentTarget.value })}
            />
          </label>
          <div class="row">
            <button type="submit">Filter</button>
            <button
              type="button"
              class="secondary"
              onClick={() => {
                setFilters(EMPTY);
              }}
            >
              Clear
            </button>
          </div>
        </form>
        {error && <p class="error">{error}</p>}
        <ul class="list" data-testid="thread-list">
          {page?.results.map((thread) => (
            <li key={thread.id}>
              <button type="button" class={open?.id === thread.id ? 'selected' : ''} onClick={() => setOpen(thread)}>
                <span class="title">{thread.title || '(untitled)'}</span>
                <span class="muted small">
                  {new Date(thread.created_at).toLocaleString()} · {thread.version_tag} · {thread.user_id}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {page && page.results.length === 0 && <p class="muted">No threads match.</p>}
        <div class="row">
          {page?.links.prev && (
            <button type="button" class="secondary" onClick={() => void load(page.links.prev!)}>
              Newer
            </button>
          )}
          {page?.links.next && (
            <button type="button" class="secondary" onClick={() => void load(page.links.next!)}>
              Older
            </button>
          )}
        </div>
      </section>
      {open ? (
        <Transcript api={api} agent={agent} thread={open} runtimeVersion={runtimeVersion} />
      ) : (
        <p class="muted">Pick a thread to read its transcript.</p>
      )}
    </div>
  );
}

function Transcript({
  api,
  agent,
  thread,
  runtimeVersion,
}: {
  api: ManagementApi;
  agent: Agent;
  thread: ThreadItem;
  runtimeVersion: string;
}) {
  const [messages, setMessages] = useState<ThreadMessage[]>();
  const [traces, setTraces] = useState<Map<string, Trace>>(new Map());
  const [focus, setFocus] = useState<{ interaction: string; citation?: number }>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let current = true;
    setMessages(undefined);
    setFocus(undefined);
    Promise.all([api.transcript(thread.id, runtimeVersion), api.traces(thread.id, agent.id)]).then(
      ([transcript, traced]) => {
        if (!current) return;
        setMessages(transcript.results);
        setTraces(new Map(traced.results.map((t) => [t.interaction_id, t])));
      },
      (e: Error) => current && setError(e.message),
    );
    return () => {
      current = false;
    };
  }, [thread.id]);

  const trace = focus && traces.get(focus.interaction);
  return (
    <div class="transcript-layout">
      <section class="transcript" data-testid="transcript">
        <h3>{thread.title || '(untitled)'}</h3>
        {error && <p class="error">{error}</p>}
        {messages?.map((m) => {
          const replyTrace = m.role === 'agent' ? traces.get(m.interaction_id) : undefined;
          return (
            <div key={m.id} class={`turn ${m.role}`}>
              <ReplyText
                text={m.text}
                onCitation={replyTrace?.runtime === 'v2' ? (citation) => setFocus({ interaction: m.interaction_id, citation }) : undefined}
              />
              {m.cards && m.cards.length > 0 && (
                <div class="cards">
                  {m.cards.map((card) => (
                    <CardView key={card.index} card={card} />
                  ))}
                </div>
              )}
              {m.role === 'agent' && (
                <div class="meta">
                  {replyTrace && (
                    <button type="button" class="link" onClick={() => setFocus({ interaction: m.interaction_id })}>
                      Trace
                    </button>
                  )}
                  <span>
                    {m.version_tag} · {m.input_tokens ?? 0} in · {m.output_tokens ?? 0} out tokens
                  </span>
                </div>
              )}
            </div>
          );
        })}
      </section>
      <aside class="trace-panel">
        <h3>Trace</h3>
        {trace ? <TraceView trace={trace} citation={focus?.citation} /> : <p class="muted">Pick a reply's trace.</p>}
      </aside>
    </div>
  );
}
