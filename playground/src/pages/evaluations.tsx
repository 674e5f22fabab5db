import { useEffect, useState } from 'preact/hooks';
import type { ManagementApi } from '../api';
import type { PageProps } from '../console';
import type { Agent, CaseResult, Evaluation, TestCase, Version } from '../types';

const POLL_MS = 500;

/** An agent's test cases, an evaluation run of one of its versions, and the run's comparison with the live version's. */
function Evaluations({ api, agent }: { api: ManagementApi; agent: Agent }) {
  const [cases, setCases] = useState<TestCase[]>([]);
  const [versions, setVersions] = useState<Version[]>([]);
  const [versionId, setVersionId] = useState<string>();
  const [run, setRun] = useState<Evaluation>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    setRun(undefined);
    api.testCases(agent.id).then(
      (page) => current && setCases(page.results),
      (e: Error) => setError(e.message),
    );
    api.versions(agent.id).then(
      (page) => {
        if (!current) return;
        setVersions(page.results);
        setVersionId(page.results[0]?.id);
      },
      (e: Error) => setError(e.message),
    );
    return () => {
      current = false;
    };
  }, [agent.id]);

  async function evaluate() {
    if (!versionId) return;
    setBusy(true);
    setError(undefined);
    setRun(undefined);
    try {
      const started = await api.startEvaluation(agent.id, versionId);
      for (;;) {
        const evaluation = await api.evaluation(agent.id, versionId, started.id);
        if (evaluation.status === 'completed' || evaluation.status === 'failed') {
          setRun(evaluation);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="evaluations" data-testid="evaluations">
      <h2>Evaluations · {agent.name}</h2>
      <p class="muted small">
        {cases.length} test case{cases.length === 1 ? '' : 's'}:{' '}
        {cases.map((c) => c.name).join(', ') || 'none yet (save a thread as a case)'}
      </p>
      <div class="row">
        <label>
          Version
          <select value={versionId} onChange={(e) => setVersionId(e.currentTarget.value)} aria-label="Version to evaluate">
            {versions.map((v) => (
              <option key={v.id} value={v.id}>
                {v.version_tag} · {v.is_live ? 'live' : v.status}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void evaluate()} disabled={busy || !versionId} data-testid="run-evaluation">
          {busy ? 'Running…' : 'Run evaluation'}
        </button>
      </div>
      {error && <p class="error">{error}</p>}
      {run && <RunView run={run} />}
    </section>
  );
}

function RunView({ run }: { run: Evaluation }) {
  return (
    <div data-testid="evaluation-result">
      <p class={run.passed ? 'passed' : 'failed'} data-testid="evaluation-summary">
        {run.version_tag}: {run.passed_count} of {run.case_count} cases passed{run.error ? ` · ${run.error}` : ''}
      </p>
      {run.compared_to && (
        <p data-testid="comparison">
          Against the live version's run ({run.compared_to.version_tag}): {run.compared_to.regressions.length} regression
          {run.compared_to.regressions.length === 1 ? '' : 's'}, {run.compared_to.fixed.length} fixed
        </p>
      )}
      <ul class="cases">
        {run.cases.map((c) => (
          <CaseView key={c.test_case_id} result={c} />
        ))}
      </ul>
    </div>
  );
}

function CaseView({ result }: { result: CaseResult }) {
  const status = result.regression ? 'regression' : result.passed ? 'passed' : 'failed';
  return (
    <li class={`case ${status}`} data-testid={`case-${status}`}>
      <strong>{result.name}</strong> <span class="badge">{status}</span>
      {result.turns.map((turn, i) => (
        <div key={i} class="case-turn">
          <p class="muted small">“{turn.text}”</p>
          <p class="small">{turn.reply}</p>
          {turn.failures.map((failure) => (
            <p key={failure} class="error small">
              {failure}
            </p>
          ))}
        </div>
      ))}
    </li>
  );
}

/** The console page (scope `agent`: the top bar always has an agent picked). */
export default function EvaluationsPage({ api, agent }: PageProps) {
  return agent ? <Evaluations key={agent.id} api={api} agent={agent} /> : null;
}
