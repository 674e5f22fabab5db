import { useEffect, useRef, useState } from 'preact/hooks';
import type { Conversations, Step, Target, Turn } from '../conversations';
import { session } from '../session';
import { streamTurn, type StreamEvent } from '../stream';
import type { Card, Message } from '../types';
import { CardView } from './Card';
import { ErrorNote } from './ErrorNote';
import { ReplyText } from './text';
import { ModelLine, TraceView } from './Trace';

let nextKey = 1;

/**
 * The conversation with one agent over SSE, and the trace panel of the reply in focus. Its turns and thread live in
 * `conversations`, so leaving the page and coming back continues the same thread.
 */
export function Chat({ target, conversations, onTurn }: { target: Target; conversations: Conversations; onTurn: () => void }) {
  const saved = conversations.get(target);
  const [turns, setTurns] = useState<Turn[]>(saved?.turns ?? []);
  const [threadId, setThreadId] = useState<string | undefined>(saved?.threadId);
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const [focus, setFocus] = useState<{ key: number; citation?: number }>();
  const bottom = useRef<HTMLDivElement>(null);

  useEffect(() => conversations.save(target, { turns, threadId }), [turns, threadId]);

  useEffect(() => {
    if (saved) return undefined;
    let current = true;
    target.auth.welcome().then(
      (welcome) => {
        if (current) {
          setTurns([
            { key: nextKey++, role: 'agent', text: welcome.welcome_message, cards: [], suggestions: welcome.followup_suggestions },
          ]);
        }
      },
      (error: unknown) => current && setTurns([{ key: nextKey++, role: 'agent', text: '', cards: [], suggestions: [], error }]),
    );
    return () => {
      current = false;
    };
  }, [target]);

  useEffect(() => bottom.current?.scrollIntoView({ block: 'end' }), [turns]);

  const update = (key: number, change: (turn: Turn) => Partial<Turn>) =>
    setTurns((all) => all.map((turn) => (turn.key === key ? { ...turn, ...change(turn) } : turn)));

  async function send(text: string) {
    if (!text.trim() || busy) return;
    setBusy(true);
    setDraft('');
    const reply: Turn = { key: nextKey++, role: 'agent', text: '', cards: [], suggestions: [], streaming: true };
    setTurns((all) => [...all, { key: nextKey++, role: 'user', text, cards: [], suggestions: [] }, reply]);
    setFocus({ key: reply.key });
    const onEvent = (event: StreamEvent) => {
      const data = event.data as Record<string, unknown>;
      switch (event.event) {
        case 'thread':
          setThreadId(data.thread_id as string);
          break;
        case 'step': {
          // One entry per step id: `started`, then its outcome replaces it.
          const step = data.step as Step;
          update(reply.key, (turn) => ({ steps: [...(turn.steps ?? []).filter((s) => s.id !== step.id), step] }));
          break;
        }
        case 'delta':
          update(reply.key, (turn) => ({ text: turn.text + (data.text as string) }));
          break;
        case 'card':
          update(reply.key, (turn) => ({ cards: [...turn.cards, data.card as Card] }));
          break;
        case 'message': {
          const message = data.message as Message;
          update(reply.key, () => ({
            messageId: message.id,
            text: message.text,
            cards: message.cards,
            trace: message.trace_info,
            tokens: { input: message.input_tokens, output: message.output_tokens },
          }));
          break;
        }
        case 'suggestions':
          update(reply.key, () => ({ suggestions: data.followup_suggestions as string[] }));
          break;
        case 'error':
          update(reply.key, () => ({ error: new Error((data as { error: { message: string } }).error.message) }));
          break;
      }
    };
    try {
      await streamTurn(
        target.auth,
        { text, user_id: session.userId(), thread_id: threadId, include_trace: true },
        { onEvent, onResume: () => update(reply.key, (turn) => ({ resumed: (turn.resumed ?? 0) + 1 })) },
      );
    } catch (error) {
      update(reply.key, () => ({ error }));
    } finally {
      update(reply.key, () => ({ streaming: false }));
      setBusy(false);
      onTurn();
    }
  }

  async function rate(turn: Turn, rating: 'up' | 'down') {
    if (!turn.messageId) return;
    try {
      await target.auth.rate(turn.messageId, rating);
      update(turn.key, () => ({ rating }));
    } catch (error) {
      update(turn.key, () => ({ error }));
    }
  }

  const focused = turns.find((turn) => turn.key === focus?.key && turn.trace);
  const lastKey = turns.at(-1)?.key;
  return (
    <div class="chat-layout">
      <section class="chat" aria-label={`Conversation with ${target.label}`}>
        <div class="messages" data-testid="messages" tabIndex={0} role="log" aria-label="Chat transcript">
          {turns.map((turn) => (
            <div key={turn.key} class={`turn ${turn.role}${focus?.key === turn.key ? ' focused' : ''}`} data-testid={`turn-${turn.role}`}>
              {turn.steps && turn.steps.length > 0 && (
                <ol class="steps" data-testid="steps">
                  {turn.steps.map((step) => (
                    <li key={step.id} class={`step ${step.status}`}>
                      {step.tool}{' '}
                      <span class="muted">
                        {step.status}
                        {step.duration_ms !== undefined ? ` · ${step.duration_ms} ms` : ''}
                      </span>
                    </li>
                  ))}
                </ol>
              )}
              {turn.text && (
                <ReplyText
                  text={turn.text}
                  onCitation={
                    turn.trace?.runtime === 'v2' && turn.trace.citations_used.length
                      ? (citation) => setFocus({ key: turn.key, citation })
                      : undefined
                  }
                />
              )}
              {turn.streaming && <span class="typing" data-testid="streaming" aria-label="streaming" />}
              <ErrorNote error={turn.error} />
              {turn.cards.length > 0 && (
                <div class="cards">
                  {turn.cards.map((card) => (
                    <CardView key={card.index} card={card} />
                  ))}
                </div>
              )}
              {turn.role === 'agent' && (turn.trace || turn.tokens || turn.resumed) && (
                <div class="meta">
                  {turn.trace && (
                    <button type="button" class="link" onClick={() => setFocus({ key: turn.key })}>
                      Trace
                    </button>
                  )}
                  {turn.trace?.model && <ModelLine model={turn.trace.model} />}
                  {turn.tokens && (
                    <span>
                      {turn.tokens.input} in · {turn.tokens.output} out tokens
                    </span>
                  )}
                  {turn.resumed ? <span data-testid="resumed">resumed ×{turn.resumed}</span> : null}
                  {turn.messageId && (
                    <span class="thumbs">
                      <button
                        type="button"
                        class="link"
                        aria-label="Helpful"
                        aria-pressed={turn.rating === 'up'}
                        data-testid="thumb-up"
                        onClick={() => void rate(turn, 'up')}
                      >
                        👍
                      </button>
                      <button
                        type="button"
                        class="link"
                        aria-label="Not helpful"
                        aria-pressed={turn.rating === 'down'}
                        data-testid="thumb-down"
                        onClick={() => void rate(turn, 'down')}
                      >
                        👎
                      </button>
                    </span>
                  )}
                </div>
              )}
              {turn.key === lastKey && turn.suggestions.length > 0 && !busy && (
                <div class="chips" data-testid="suggestions">
                  {turn.suggestions.map((s) => (
                    <button type="button" key={s} onClick={() => void send(s)}>
                      {s}
                    </button>
                  ))}
                </div>
              )}
            </div>
          ))}
          <div ref={bottom} />
        </div>
        <form
          class="composer"
          onSubmit={(e) => {
            e.preventDefault();
            void send(draft);
          }}
        >
          <input
            value={draft}
            onInput={(e) => setDraft(e.currentTarget.value)}
            placeholder={`Message ${target.label}`}
            aria-label="Message"
            maxLength={16384}
          />
          <button type="submit" disabled={busy || !draft.trim()}>
            Send
          </button>
        </form>
        <p class="muted small" data-testid="thread-line">
          {threadId ? `thread ${threadId}` : 'a new thread starts with your first message'} · end user {session.userId()}
        </p>
      </section>
      <aside class="trace-panel" data-testid="trace-panel" aria-label="Trace" tabIndex={0}>
        <h2 class="panel-title">Trace</h2>
        {focused?.trace ? (
          <TraceView trace={focused.trace} citation={focus?.citation} />
        ) : (
          <p class="muted">Send a message: the reasoning behind each reply shows here.</p>
        )}
      </aside>
    </div>
  );
}
