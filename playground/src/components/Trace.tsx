import { useEffect, useRef } from 'preact/hooks';
import type { AgentRun, AgentStep, Trace, TraceModel, V1Trace, V2Trace } from '../types';
import { SafeLink } from './text';

/** The reasoning of one reply: the v1 decisioning steps, or the v2 passages, citations and narrative. */
export function TraceView({ trace, citation }: { trace: Trace; citation?: number }) {
  return (
    <div class="trace" data-testid="trace">
      <p class="muted">runtime {trace.runtime === 'v2' ? `v2 · build ${trace.build}` : 'v1'}</p>
      {trace.model && (
        <p data-testid="trace-model">
          <ModelLine model={trace.model} />
        </p>
      )}
      {trace.agent && <AgentSummary run={trace.agent} />}
      {trace.runtime === 'v2' && trace.steps && trace.steps.length > 0 && <Steps steps={trace.steps} />}
      {trace.runtime === 'v1' ? <V1 trace={trace} /> : <V2 trace={trace} citation={citation} />}
    </div>
  );
}

/**
 * Which model wrote the reply and where it was called: "builtin writer (no model call)", or "openai · gpt-4o-mini
 * at https://llm.example.com/v1"; when the engine's own reply was sent instead (a fixed reply, or the provider
 * wrote nothing), it says so.
 */
export function ModelLine({ model }: { model: TraceModel }) {
  if (model.provider === 'builtin') return <span class="model">builtin writer (no model call)</span>;
  const who = `${model.provider}${model.name ? ` · ${model.name}` : ''}${model.endpoint ? ` at ${model.endpoint}` : ''}`;
  return <span class="model">{model.writer === model.provider ? who : `engine's own reply (${who} not used)`}</span>;
}

type Tone = 'ok' | 'no' | 'warn' | 'neutral';

function Status({ tone, children }: { tone: Tone; children: string }) {
  return <span class={`status ${tone}`}>{children}</span>;
}

/** Agent mode: the loop's model calls, tokens and why it stopped. */
function AgentSummary({ run }: { run: AgentRun }) {
  return (
    <section data-testid="agent-run">
      <h5>Agent</h5>
      <p>
        <Status tone={run.stop_reason === 'answered' ? 'ok' : 'warn'}>{run.stop_reason.replace('_', ' ')}</Status> {run.provider} ·{' '}
        {run.model_calls} of {run.max_steps} model calls · {run.tokens_used} tokens <span class="muted">{run.detail}</span>
      </p>
    </section>
  );
}

/** Agent mode (v2): the tool calls the model made, in order. */
function Steps({ steps }: { steps: AgentStep[] }) {
  return (
    <section>
      <h5>Steps</h5>
      <ol class="decisions" data-testid="trace-steps">
        {steps.map((s) => (
          <li key={s.id}>
            <div>
              <strong>{s.parent_tool ? `${s.parent_tool} · ${s.tool}` : s.tool}</strong>{' '}
              <Status tone={DECISION_TONE[s.status] ?? 'no'}>{s.status}</Status> <span class="muted">{s.duration_ms} ms</span>
            </div>
            <code>{s.arguments}</code>
            {s.output_title && <div class="reason">{s.output_title}</div>}
            {s.fail_reason && <div class="reason muted">{s.fail_reason}</div>}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Completed tools read as good news, a triggered rule as worth a look; skipped and untriggered steps stay neutral. */
const DECISION_TONE: Record<string, Tone> = { completed: 'ok', triggered: 'warn', no_results: 'no', refused: 'warn', failed: 'no' };

function V1({ trace }: { trace: V1Trace }) {
  const guard = trace.understanding.guardrails;
  return (
    <>
      <section>
        <h5>Intents</h5>
        {trace.understanding.intents.length ? (
          <ul class="chips static">
            {trace.understanding.intents.map((intent, i) => (
              <li key={intent} class={i === 0 ? 'best' : ''}>
                {intent}
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">none recognised</p>
        )}
      </section>
      <section>
        <h5>Guardrails</h5>
        <p>
          <Status tone={guard.passed ? 'ok' : 'no'}>{guard.passed ? 'passed' : 'blocked'}</Status> {guard.reason}
        </p>
      </section>
      <section>
        <h5>Decisions</h5>
        {trace.decisions.length === 0 && <p class="muted">no tools or rules</p>}
        <ol class="decisions">
          {trace.decisions.map((d) => (
            <li key={d.track_id}>
              <div>
                <strong>{d.type === 'rule' ? `rule ${d.rule.code}` : `tool ${d.tool}`}</strong>{' '}
                <Status tone={DECISION_TONE[d.status] ?? 'neutral'}>{d.status.replace('_', ' ')}</Status>
              </div>
              {d.trigger.reasons
                .filter((reason) => reason !== d.computation)
                .map((reason, i) => (
                  <div key={i} class="reason">
                    {reason}
                  </div>
                ))}
              {d.text && <div class="reason">{d.text}</div>}
              {d.fail_reason && <div class="reason muted">{d.fail_reason}</div>}
              {d.computation && <code>{d.computation}</code>}
            </li>
          ))}
        </ol>
      </section>
      <section>
        <h5>Computed parameters</h5>
        {trace.computed_parameters.length === 0 ? (
          <p class="muted">none</p>
        ) : (
          <table>
            <tbody>
              {trace.computed_parameters.map((p) => (
                <tr key={p.code}>
                  <td>{p.code}</td>
                  <td>{p.title}</td>
                  <td class="muted">{p.scope}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section>
        <h5>Rules evaluations</h5>
        {trace.rules_evaluations.length === 0 && <p class="muted">no rules</p>}
        <ul class="plain">
          {trace.rules_evaluations.map((r) => (
            <li key={r.code}>
              <Status tone={r.triggered ? 'warn' : 'neutral'}>{r.triggered ? 'triggered' : 'not triggered'}</Status>{' '}
              <strong>{r.code}</strong>
              {r.reason.map((reason, i) => (
                <div key={i} class="reason">
                  <code>{reason.condition.operation}</code>
                </div>
              ))}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

function V2({ trace, citation }: { trace: V2Trace; citation?: number }) {
  const focused = trace.citations_used.find((c) => c.marker === citation);
  const focusRef = useRef<HTMLElement>(null);
  useEffect(() => focusRef.current?.scrollIntoView({ block: 'nearest' }), [citation]);
  return (
    <>
      {focused && (
        <section class="focused" ref={focusRef} data-testid="citation-passage">
          <h5>
            Source [{focused.marker}] · {focused.title}
          </h5>
          <blockquote>{focused.text}</blockquote>
          <p class="muted">
            passage {focused.passage_id} {focused.url && <SafeLink href={focused.url}>open article</SafeLink>}
          </p>
        </section>
      )}
      <section>
        <h5>Narrative</h5>
        <p>{trace.narrative}</p>
      </section>
      <section>
        <h5>Citations</h5>
        {trace.citations_used.length === 0 && <p class="muted">the reply cites nothing</p>}
        <ul class="plain">
          {trace.citations_used.map((c) => (
            <li key={c.marker}>
              <strong>[{c.marker}]</strong> {c.title} <span class="muted">{c.passage_id}</span>
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h5>Passages used</h5>
        {trace.passages_used.map((p) => (
          <details key={p.passage_id}>
            <summary>
              {p.passage_id} <span class="muted">score {p.score}</span>
            </summary>
            <blockquote>{p.text}</blockquote>
          </details>
        ))}
      </section>
      <section>
        <h5>Checks and policies</h5>
        <ul class="plain">
          {trace.checks.map((c) => (
            <li key={c.name}>
              <Status tone={c.passed ? 'ok' : 'no'}>{c.passed ? 'passed' : 'failed'}</Status> {c.name} <span class="muted">{c.detail}</span>
            </li>
          ))}
          {trace.policies.map((p) => (
            <li key={p.code}>
              <Status tone="neutral">{p.decision}</Status> {p.code} <span class="muted">{p.detail}</span>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
