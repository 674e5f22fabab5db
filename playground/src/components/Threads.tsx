import { useEffect, useState } from 'preact/hooks';
import type { ManagementApi } from '../api';
import type { Agent, Page, ThreadItem, ThreadMessage, Trace } from '../types';
import { CardView } from './Card';
import { ErrorNote } from './ErrorNote';
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

/** Examples in the filter fields, taken from the agent's own live bundle so they name its tools, rules and parameters. */
interface Examples {
  tool?: string;
  rule?: string;
  param: string;
}

interface LiveBundle {
  tools?: Array<{ code?: string }>;
  rules?: Array<{ code?: string }>;
  parameters?: Array<{ code?: string; type?: string }>;
}

/**
 * v1 agents record the tools and rules each turn ran, and the parameters it computed; v2 agents record no tools or
 * rules (those filters are not offered) and only agent variables as parameters.
 */
function examplesOf(agent: Agent, bundle: LiveBundle | undefined): Examples {
  if (agent.runtime === 'v2') return { param: 'an agent variable, e.g. plan:pro' };
  const parameter = bundle?.parameters?.find((p) => p.code);
  return {
    tool: bundle?.tools?.find((t) => t.code)?.code ?? 'a tool code',
    rule: `${bundle?.rules?.find((r) => r.code)?.code ?? 'code'}:fired`,
    param: parameter ? (parameter.type === 'number' ? `${parameter.code}>=10` : `${parameter.code}:*`) : 'code:value',
  };
}

/** The management thread list of one agent with its filters, and a thread's transcript with each reply's trace. */
export function Threads({ api, agent }: { api: ManagementApi; agent: Agent }) {
  const runtimeVersion = agent.runtime === 'v2' ? '2' : '1';
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState<Page<ThreadItem>>();
  const [error, setError] = useState<unknown>();
  const [open, setOpen] = useState<ThreadItem>();
  const [bundle, setBundle] = useState<LiveBundle>();
  const examples = examplesOf(agent, bundle);

  useEffect(() => {
    if (agent.runtime === 'v1' && agent.live_version_id) {
      api.pull(agent.id, agent.live_version_id, agent.live_version_tag ?? undefined).then(
        (pulled) => setBundle(pulled.bundle as LiveBundle),
        () => setBundle(undefined),
      );
    }
  }, [agent.id]);

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
      setError(e);
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
      <section class="thread-list" aria-label="Threads" tabIndex={0}>
        <form
          class="filters"
          onSubmit={(e) => {
            e.preventDefault();
            void load();
          }}
        >
          {field('user_id', 'End user', 'user id')}
          {examples.tool !== undefined && field('tool', 'Tool', examples.tool)}
          {examples.rule !== undefined && field('rule', 'Rule', examples.rule)}
          {field('param', 'Parameter', examples.param)}
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
        <ErrorNote error={error} />
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
  const [error, setError] = useState<unknown>();

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
      (e: unknown) => current && setError(e),
    );
    return () => {
      current = false;
    };
  }, [thread.id]);

  const trace = focus && traces.get(focus.interaction);
  return (
    <div class="transcript-layout">
      <section class="transcript" data-testid="transcript" tabIndex={0} aria-label="Transcript">
        <h2 class="panel-title">{thread.title || '(untitled)'}</h2>
        <ErrorNote error={error} />
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
      <aside class="trace-panel" aria-label="Trace" tabIndex={0}>
        <h2 class="panel-title">Trace</h2>
        {trace ? <TraceView trace={trace} citation={focus?.citation} /> : <p class="muted">Pick a reply's trace.</p>}
      </aside>
    </div>
  );
}
