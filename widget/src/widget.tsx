/** The launcher and the chat panel (docs/widget.md). */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { explain, type WidgetApi } from './api';
import type { WidgetConfig } from './config';
import { Reply } from './reply';
import { conversationStore } from './store';
import { agentTurn, userTurn, type Turn } from './turns';

/** The service's limit on a message (INPUT_LIMITS.messageMaxChars). */
const MESSAGE_MAX_CHARS = 16384;

export function Widget({ api, config, agentId, userId }: { api: WidgetApi; config: WidgetConfig; agentId: string; userId: string }) {
  const store = useMemo(() => conversationStore(agentId, userId), [agentId, userId]);
  const saved = useMemo(() => store.load(), [store]);
  const [open, setOpen] = useState(saved?.open ?? config.open);
  const [turns, setTurns] = useState<Turn[]>(saved?.turns ?? []);
  const [threadId, setThreadId] = useState(saved?.threadId);
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const nextKey = useRef(Math.max(0, ...(saved?.turns ?? []).map((t) => t.key)) + 1);
  const launcher = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  /** Focus moves into the panel only when the visitor opened it, never on page load (data-open). */
  const focusOnOpen = useRef(false);

  const key = () => nextKey.current++;
  const update = (k: number, change: (turn: Turn) => Partial<Turn>) =>
    setTurns((all) => all.map((turn) => (turn.key === k ? { ...turn, ...change(turn) } : turn)));

  useEffect(() => store.save({ threadId, turns, open }), [store, threadId, turns, open]);
  // The log's own scroll, not scrollIntoView, which could scroll the host page too.
  useEffect(() => {
    if (log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [turns, open]);
  useEffect(() => {
    if (open && focusOnOpen.current) input.current?.focus();
  }, [open]);

  // The greeting, once per conversation, when the panel first opens.
  useEffect(() => {
    if (!open || turns.length > 0) return;
    const greeting = agentTurn(key());
    setTurns([{ ...greeting, streaming: true }]);
    api.welcome().then(
      (welcome) =>
        update(greeting.key, () => ({ text: welcome.welcome_message, suggestions: welcome.followup_suggestions, streaming: false })),
      (error: unknown) => update(greeting.key, () => ({ error: explain(error), streaming: false })),
    );
  }, [open]);

  function toggle(next: boolean) {
    focusOnOpen.current = next;
    setOpen(next);
    if (!next) launcher.current?.focus();
  }

  async function send(text: string) {
    const message = text.trim();
    if (!message || busy) return;
    setBusy(true);
    setDraft('');
    const asked = userTurn(key(), message);
    const reply = { ...agentTurn(key()), streaming: true };
    setTurns((all) => [...all, asked, reply]);
    try {
      for await (const event of api.send({ text: message, user_id: userId, thread_id: threadId })) {
        switch (event.event) {
          case 'thread':
            setThreadId(event.data.thread_id);
            break;
          case 'delta':
            update(reply.key, (turn) => ({ text: turn.text + event.data.text }));
            break;
          case 'card':
            update(reply.key, (turn) => ({ cards: [...turn.cards, event.data.card] }));
            break;
          case 'message': {
            const final = event.data.message;
            update(reply.key, () => ({ text: final.text, cards: final.cards, citations: final.citations }));
            break;
          }
          case 'suggestions':
            update(reply.key, () => ({ suggestions: event.data.followup_suggestions }));
            break;
          case 'done':
            break;
        }
      }
    } catch (error) {
      update(reply.key, () => ({ error: explain(error) }));
    } finally {
      update(reply.key, () => ({ streaming: false }));
      setBusy(false);
    }
  }

  const last = turns.at(-1);
  return (
    <div class={`root theme-${config.theme}`} onKeyDown={(e) => e.key === 'Escape' && open && toggle(false)}>
      {open && (
        <section class="panel" role="dialog" aria-modal="false" aria-labelledby="agent-widget-title" id="agent-widget-panel">
          <header>
            <h2 id="agent-widget-title">{config.title}</h2>
            <button type="button" class="icon" aria-label="Close chat" onClick={() => toggle(false)}>
              <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          </header>
          <div class="log" role="log" aria-label="Conversation" tabIndex={0} ref={log}>
            {turns.map((turn) => (
              <div key={turn.key} class={`turn ${turn.role}`} data-role={turn.role} aria-busy={turn.streaming ? 'true' : undefined}>
                <span class="sr-only">{turn.role === 'user' ? 'You:' : `${config.title}:`}</span>
                <Reply turn={turn} />
                {turn.streaming && (
                  <span class="typing" role="status">
                    <span class="sr-only">Writing a reply</span>
                  </span>
                )}
                {turn.error && (
                  <p class="error" role="alert">
                    {turn.error}
                  </p>
                )}
              </div>
            ))}
            {last?.role === 'agent' && !busy && last.suggestions.length > 0 && (
              <div class="chips" role="group" aria-label="Suggestions">
                {last.suggestions.map((s) => (
                  <button type="button" key={s} onClick={() => void send(s)}>
                    {s}
                  </button>
                ))}
              </div>
            )}
          </div>
          <form
            class="composer"
            onSubmit={(e) => {
              e.preventDefault();
              void send(draft);
            }}
          >
            <label class="sr-only" for="agent-widget-input">
              Message
            </label>
            <textarea
              id="agent-widget-input"
              ref={input}
              rows={1}
              value={draft}
              maxLength={MESSAGE_MAX_CHARS}
              placeholder="Write a message…"
              onInput={(e) => setDraft(e.currentTarget.value)}
              onKeyDown={(e) => {
                // Enter sends, Shift+Enter starts a new line.
                if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
                  e.preventDefault();
                  void send(e.currentTarget.value);
                }
              }}
            />
            <button type="submit" class="send" aria-label="Send" disabled={busy || !draft.trim()}>
              <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <path d="M4 12l16-8-6 16-2.5-6.5z" />
              </svg>
            </button>
          </form>
        </section>
      )}
      <button
        type="button"
        class="launcher"
        ref={launcher}
        aria-label={open ? 'Close chat' : `Open chat: ${config.title}`}
        aria-expanded={open}
        aria-controls={open ? 'agent-widget-panel' : undefined}
        onClick={() => toggle(!open)}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 5h16v11H9l-5 4z" />}
        </svg>
      </button>
    </div>
  );
}
