import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ManagementApi } from '../api';
import type { PageProps } from '../console';
import type { Agent, Analytics, AnalyticsGroup } from '../types';

const GROUPINGS: Array<{ value: Analytics['group_by']; label: string }> = [
  { value: 'arm', label: 'Traffic arm (version)' },
  { value: 'version_tag', label: 'Revision' },
  { value: 'day', label: 'Day' },
];

const RATES = [
  { key: 'containment_rate', label: 'Contained', color: '#2e7d32' },
  { key: 'handoff_rate', label: 'Handed off', color: '#1565c0' },
  { key: 'decline_rate', label: 'Declined', color: '#c62828' },
] as const;

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 100)} %`);

/** An agent's outcomes per traffic arm, revision or day: the three rates as grouped bars, and every figure in a table. */
function AnalyticsReport({ api, agent }: { api: ManagementApi; agent: Agent }) {
  const [groupBy, setGroupBy] = useState<Analytics['group_by']>('arm');
  const [report, setReport] = useState<Analytics>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let current = true;
    setReport(undefined);
    api.analytics(agent.id, groupBy).then(
      (answer) => current && setReport(answer),
      (e: Error) => setError(e.message),
    );
    return () => {
      current = false;
    };
  }, [agent.id, groupBy]);

  return (
    <section class="analytics" data-testid="analytics">
      <h2>Analytics · {agent.name}</h2>
      <label>
        Group by
        <select value={groupBy} onChange={(e) => setGroupBy(e.currentTarget.value as Analytics['group_by'])} aria-label="Group by">
          {GROUPINGS.map((g) => (
            <option key={g.value} value={g.value}>
              {g.label}
            </option>
          ))}
        </select>
      </label>
      {error && <p class="error">{error}</p>}
      {report && report.groups.length === 0 && <p class="muted">No conversations yet.</p>}
      {report && report.groups.length > 0 && (
        <>
          <RatesChart groups={report.groups} />
          <table class="figures" data-testid="analytics-table">
            <thead>
              <tr>
                <th>Group</th>
                <th>Threads</th>
                <th>Messages</th>
                {RATES.map((r) => (
                  <th key={r.key}>{r.label}</th>
                ))}
                <th>Feedback up / down</th>
                <th>p50 / p95 ms</th>
                <th>Tokens in / out</th>
              </tr>
            </thead>
            <tbody>
              {report.groups.map((g) => (
                <tr key={g.key}>
                  <td>{label(g)}</td>
                  <td>{g.threads}</td>
                  <td>{g.messages}</td>
                  {RATES.map((r) => (
                    <td key={r.key}>{percent(g[r.key])}</td>
                  ))}
                  <td>
                    {g.feedback_up} / {g.feedback_down}
                  </td>
                  <td>
                    {g.latency_p50_ms ?? '—'} / {g.latency_p95_ms ?? '—'}
                  </td>
                  <td>
                    {g.input_tokens} / {g.output_tokens}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

/** A group's name: the arm's revision tags (its id is long), else the key itself. */
const label = (g: AnalyticsGroup) => (g.version_id ? g.version_tags.join(', ') : g.key);

/**
 * The rates as grouped bars (uPlot): group i's three bars stand at i − 0.25, i and i + 0.25, so each series has a value
 * at its own offsets only (null elsewhere, which uPlot skips).
 */
function RatesChart({ groups }: { groups: AnalyticsGroup[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const offsets = [-0.25, 0, 0.25];
    const x = groups.flatMap((_, i) => offsets.map((o) => i + o));
    const series = RATES.map((rate, s) => groups.flatMap((g) => offsets.map((_, o) => (o === s ? (g[rate.key] ?? 0) : null))));
    const bars = uPlot.paths.bars!({ size: [0.22, 60], align: 0 });
    const chart = new uPlot(
      {
        width: Math.min(720, box.current.clientWidth || 720),
        height: 260,
        scales: { x: { time: false, range: [-0.5, groups.length - 0.5] }, y: { range: [0, 1] } },
        axes: [
          { splits: () => groups.map((_, i) => i), values: (_u, ticks) => ticks.map((t) => (groups[t] ? label(groups[t]) : '')) },
          { values: (_u, ticks) => ticks.map((t) => `${Math.round(t * 100)} %`) },
        ],
        series: [
          {},
          ...RATES.map((rate) => ({
            label: rate.label,
            stroke: rate.color,
            fill: `${rate.color}cc`,
            paths: bars,
            points: { show: false },
          })),
        ],
      },
      [x, ...series] as uPlot.AlignedData,
      box.current,
    );
    return () => chart.destroy();
  }, [groups]);
  return <div ref={box} class="chart" data-testid="analytics-chart" />;
}

/** The console page (scope `agent`: the top bar always has an agent picked). */
export default function AnalyticsPage({ api, agent }: PageProps) {
  return agent ? <AnalyticsReport key={agent.id} api={api} agent={agent} /> : null;
}
