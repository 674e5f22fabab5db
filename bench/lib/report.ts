/** Result shapes, aggregation, and the JSON + Markdown outputs under `bench/results/`. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BaselineKind, Goal } from '../scenario.js';
import type { MachineInfo } from './proc.js';

export interface Measured {
  requests: number;
  duration_s: number;
  rps: number;
  latency_p50_ms: number;
  latency_p95_ms: number;
  latency_p99_ms: number;
  latency_max_ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  status_codes: Record<string, number>;
  /** Server process CPU (utime + stime) per completed request, µs. */
  server_cpu_us_per_request: number;
  /** CPU of the PostgreSQL backends serving that server, per request, µs (0 for the bare Fastify baseline). */
  db_cpu_us_per_request: number;
  loadgen_cpu_us_per_request: number;
  /** Share of all cores busy during the run (everything on the machine). */
  machine_busy: number;
}

export interface RunPair {
  scenario: Measured;
  baseline: Measured;
  ratio: number;
}

/** One route of a fixed-rate mix. */
export interface MixRouteResult {
  target_rps: number;
  requests: number;
  rps: number;
  latency_p50_ms: number;
  latency_p95_ms: number;
  latency_p99_ms: number;
  latency_max_ms: number;
  non2xx: number;
  errors: number;
  status_codes: Record<string, number>;
}

/** A sample of the service while the mix runs. */
export interface MixSample {
  t_s: number;
  rss_mib: number;
  /** prom-client's event-loop delay since the previous scrape (absent when the metrics listener did not answer). */
  loop_p99_ms?: number;
  loop_max_ms?: number;
}

export interface MixResult {
  rate_rps: number;
  /** Where the rate came from: `--rate`, or a third of the capacity measured by the unthrottled warm-up. */
  rate_source: string;
  capacity_rps?: number;
  duration_s: number;
  connections: number;
  routes: Record<string, MixRouteResult>;
  server_cpu_us_per_request: number;
  db_cpu_us_per_request: number;
  machine_busy: number;
  samples: MixSample[];
  /** Least-squares slope of RSS over the second half of the run, MiB per minute (≈ 0: no growth). */
  rss_growth_mib_per_min: number;
  load_average: number[];
}

export interface ScenarioResult {
  name: string;
  description: string;
  status: 'ok' | 'not_available' | 'failed';
  reason?: string;
  unit: string;
  baseline: BaselineKind;
  /** What a `self` baseline loads (the plan's `baseline.label`). */
  baseline_label?: string;
  goal?: Goal;
  /** The work of each side of the pair (the scenario's `work`), printed with the verdict. */
  work?: { service: string; baseline: string };
  runs: RunPair[];
  summary?: {
    rps: number;
    latency_p50_ms: number;
    latency_p95_ms: number;
    latency_p99_ms: number;
    server_cpu_us_per_request: number;
    db_cpu_us_per_request: number;
    non2xx: number;
    errors: number;
    baseline_rps: number;
    baseline_latency_p99_ms: number;
    baseline_cpu_us_per_request: number;
    baseline_db_cpu_us_per_request: number;
    ratio: number;
    /** Scenario p99 over the baseline's (medians over runs). */
    p99_factor: number;
    /** Baseline CPU per request over the scenario's: the share of the baseline's efficiency the route keeps. */
    cpu_ratio: number;
    /** The same with the PostgreSQL backends' CPU added on both sides. */
    total_cpu_ratio: number;
    machine_busy: number;
  };
  mix?: MixResult;
  /** Probe figures (first-delta latency, sessions held, RSS ...). */
  extra?: Record<string, number>;
}

export interface BenchReport {
  started_at: string;
  finished_at: string;
  command: string;
  machine: MachineInfo;
  options: {
    runs: number;
    duration_s: number;
    warmup_s: number;
    connections: number;
    mix_duration_s?: number;
    rate?: number;
    /** `tuned` (rate limiting off, accepts measured with processing paused) or `default` (the service's defaults). */
    configuration?: 'tuned' | 'default';
  };
  /** 1-, 5- and 15-minute load averages at the start and at the end: figures from a busy machine are not the machine's. */
  load_average: { start: number[]; end: number[] };
  /** The PostgreSQL server's autovacuum setting during the run. */
  autovacuum?: boolean;
  note: string;
  /** The service ran under --cpu-prof: figures are slower than normal and not comparable. */
  profiled?: boolean;
  scenarios: ScenarioResult[];
}

export const median = (values: number[]): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Medians over the runs; CPU per request is total CPU over total requests (weighted, not a median of ratios). */
export function summarize(runs: RunPair[]): ScenarioResult['summary'] {
  const s = runs.map((r) => r.scenario);
  const b = runs.map((r) => r.baseline);
  const weighted = (items: Measured[], pick: (m: Measured) => number) => {
    const requests = sum(items.map((m) => m.requests));
    return requests > 0 ? sum(items.map((m) => pick(m) * m.requests)) / requests : 0;
  };
  const serverCpu = weighted(s, (m) => m.server_cpu_us_per_request);
  const dbCpu = weighted(s, (m) => m.db_cpu_us_per_request);
  const baselineCpu = weighted(b, (m) => m.server_cpu_us_per_request);
  const baselineDbCpu = weighted(b, (m) => m.db_cpu_us_per_request);
  const p99 = median(s.map((m) => m.latency_p99_ms));
  const baselineP99 = median(b.map((m) => m.latency_p99_ms));
  return {
    rps: median(s.map((m) => m.rps)),
    latency_p50_ms: median(s.map((m) => m.latency_p50_ms)),
    latency_p95_ms: median(s.map((m) => m.latency_p95_ms)),
    latency_p99_ms: p99,
    server_cpu_us_per_request: serverCpu,
    db_cpu_us_per_request: dbCpu,
    non2xx: sum(s.map((m) => m.non2xx)),
    errors: sum(s.map((m) => m.errors + m.timeouts)),
    baseline_rps: median(b.map((m) => m.rps)),
    baseline_latency_p99_ms: baselineP99,
    baseline_cpu_us_per_request: baselineCpu,
    baseline_db_cpu_us_per_request: baselineDbCpu,
    ratio: median(runs.map((r) => r.ratio)),
    p99_factor: baselineP99 > 0 ? p99 / baselineP99 : 0,
    cpu_ratio: serverCpu > 0 ? baselineCpu / serverCpu : 0,
    total_cpu_ratio: serverCpu + dbCpu > 0 ? (baselineCpu + baselineDbCpu) / (serverCpu + dbCpu) : 0,
    machine_busy: median(s.map((m) => m.machine_busy)),
  };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

const BASELINE_LABEL: Record<BaselineKind, string> = {
  'bare-fastify': 'bare Fastify /health',
  'turn-baseline': 'turn-baseline',
  'accept-baseline': 'accept-baseline',
  'list-baseline': 'list-baseline',
  self: 'the service',
};

const baselineLabel = (s: ScenarioResult) => s.baseline_label ?? BASELINE_LABEL[s.baseline];

/** Scenario CPU per request (service + PostgreSQL) over the baseline's. */
const cpuFactor = (m: NonNullable<ScenarioResult['summary']>) => (m.total_cpu_ratio > 0 ? 1 / m.total_cpu_ratio : 0);

/** The steady-mix goal: every route's p99 at most this, with no errors. */
export const MIX_P99_GOAL_MS = 50;

function goalText(goal: Goal): string {
  const parts = goal.ratio === undefined ? [] : [`≥ ${fmt(goal.ratio, 2)}×`];
  if (goal.p99Factor !== undefined) parts.push(`p99 ≤ ${fmt(goal.p99Factor, 1)}× baseline p99`);
  if (goal.p95MaxMs !== undefined) parts.push(`p95 ≤ ${goal.p95MaxMs} ms`);
  if (goal.cpuFactor !== undefined) parts.push(`CPU/req (server + DB) ≤ ${fmt(goal.cpuFactor, 2)}× baseline`);
  if (goal.serverCpuFactor !== undefined) parts.push(`service CPU/req ≤ ${fmt(goal.serverCpuFactor, 2)}× baseline`);
  return `${parts.join(', ')}, 0 errors`;
}

/** Whether a scenario's summary meets its goal, and if not, which parts miss. */
export function verdict(goal: Goal, m: NonNullable<ScenarioResult['summary']>): { met: boolean; missed: string[] } {
  const missed: string[] = [];
  if (goal.ratio !== undefined && m.ratio < goal.ratio) missed.push('ratio');
  if (goal.p99Factor !== undefined && m.p99_factor > goal.p99Factor) missed.push('p99');
  if (goal.p95MaxMs !== undefined && m.latency_p95_ms > goal.p95MaxMs) missed.push('p95');
  if (goal.cpuFactor !== undefined && cpuFactor(m) > goal.cpuFactor) missed.push('CPU');
  if (goal.serverCpuFactor !== undefined && (m.cpu_ratio > 0 ? 1 / m.cpu_ratio : 0) > goal.serverCpuFactor) missed.push('service CPU');
  if (m.non2xx + m.errors > 0) missed.push('errors');
  return { met: missed.length === 0, missed };
}

const loadText = (l: number[]) => l.map((v) => fmt(v, 2)).join(' / ');

function mixMarkdown(name: string, mix: MixResult, trial: boolean): string[] {
  const lines = ['', `## ${name}: fixed rate, per route`, ''];
  lines.push(
    `- ${fmt(mix.rate_rps)} req/s in total (${mix.rate_source}${mix.capacity_rps ? `; capacity measured ${fmt(mix.capacity_rps)} req/s` : ''}) ` +
      `for ${mix.duration_s} s on ${mix.connections} connections; load average during the run ${loadText(mix.load_average)}`,
  );
  lines.push(
    `- Service CPU ${fmt(mix.server_cpu_us_per_request)} µs/req, PostgreSQL CPU ${fmt(mix.db_cpu_us_per_request)} µs/req, machine busy ${fmt(mix.machine_busy * 100)}%`,
  );
  const rss = mix.samples.map((x) => x.rss_mib);
  if (rss.length > 0) {
    lines.push(
      `- Service RSS: ${fmt(rss[0] ?? 0, 1)} MiB at the start, ${fmt(rss[rss.length - 1] ?? 0, 1)} MiB at the end, max ${fmt(Math.max(...rss), 1)} MiB; ` +
        `growth over the second half ${fmt(mix.rss_growth_mib_per_min, 2)} MiB/min (${rss.length} samples)`,
    );
  }
  const loopP99 = mix.samples.flatMap((x) => (x.loop_p99_ms === undefined ? [] : [x.loop_p99_ms]));
  const loopMax = mix.samples.flatMap((x) => (x.loop_max_ms === undefined ? [] : [x.loop_max_ms]));
  if (loopP99.length > 0) {
    lines.push(
      `- Event-loop delay (metrics endpoint, per sample window): p99 median ${fmt(median(loopP99), 1)} ms, worst window p99 ${fmt(Math.max(...loopP99), 1)} ms, max ${fmt(Math.max(...loopMax), 1)} ms`,
    );
  }
  lines.push('', `| Route | target req/s | req/s | p50 ms | p95 ms | p99 ms | max ms | non-2xx | errors | p99 ≤ ${MIX_P99_GOAL_MS} ms |`);
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const [route, r] of Object.entries(mix.routes)) {
    const met = r.latency_p99_ms <= MIX_P99_GOAL_MS && r.non2xx + r.errors === 0;
    lines.push(
      `| ${route} | ${fmt(r.target_rps)} | ${fmt(r.rps)} | ${fmt(r.latency_p50_ms, 1)} | ${fmt(r.latency_p95_ms, 1)} | ${fmt(r.latency_p99_ms, 1)} | ${fmt(r.latency_max_ms, 1)} | ${fmt(r.non2xx)} | ${fmt(r.errors)} | ${met ? 'met' : 'not met'}${trial ? ' (trial)' : ''} |`,
    );
  }
  return lines;
}

export function toMarkdown(report: BenchReport): string {
  const lines: string[] = [];
  const trial = report.options.runs < 3 || report.options.duration_s < 10;
  lines.push(`# Benchmark results`, '');
  lines.push(`- Command: \`${report.command}\``);
  lines.push(`- When: ${report.started_at} → ${report.finished_at}`);
  lines.push(
    `- Machine: ${report.machine.cores} cores, ${report.machine.cpu_model}, ${report.machine.memory_gib} GiB, Node ${report.machine.node}, Linux ${report.machine.kernel}`,
  );
  lines.push(
    `- Load average (1/5/15 min): ${loadText(report.load_average.start)} at the start, ${loadText(report.load_average.end)} at the end`,
  );
  if (report.autovacuum !== undefined) {
    lines.push(
      report.autovacuum
        ? '- PostgreSQL: autovacuum on (as on a production server)'
        : '- PostgreSQL: **autovacuum off** on this server: tables that churn (events, threads) keep their dead rows, so the event drain and thread writes degrade during the run; not a production configuration',
    );
  }
  lines.push(
    `- Load: ${report.options.connections} connections, warm-up ${report.options.warmup_s} s discarded, ${report.options.runs} × ${report.options.duration_s} s measured (medians shown); each run is paired with a baseline run just before it`,
  );
  lines.push(
    report.options.configuration === 'default'
      ? "- Configuration: **the service's defaults** (`--default-config`): rate-limit windows counted in Redis on every request (service and same-work baselines), in-process workers processing events while `events-ingest` measures accepts"
      : "- Configuration: **tuned** (the harness default): rate limiting off (`RATE_LIMIT_MAX=0`, service and baselines), `events-ingest` measures accepts with event processing paused (both sides); `--default-config` runs the service's defaults",
  );
  if (trial) lines.push(`- **Trial only**: shorter than the default 3 × 10 s; not a figure to quote, and no goal is judged by it.`);
  lines.push(`- ${report.note}`);
  lines.push(
    "- Baselines: `bare Fastify /health` for health and the routes without a same-work twin; `turn-baseline`, `accept-baseline`, `list-baseline` do the same named statements, commits (the accept: the service's own group commit and wake-up) and JSON with bare Fastify + pg (bench/same-work-server.ts), loaded with the same requests; `the service, ...` pairs the service with itself on smaller data (flat cost as threads grow); `synchronous turns, same threads` pairs the events the workers drain with the same turns sent synchronously",
    '- req/s ratio = scenario req/s ÷ baseline req/s (paired runs, median); CPU ratio = baseline CPU µs/req ÷ scenario CPU µs/req (server only; "+DB" adds the PostgreSQL backends on both sides)',
    '',
  );
  lines.push(
    '| Scenario | paired with | req/s | p50 ms | p95 ms | p99 ms | server CPU µs/req | DB CPU µs/req | non-2xx | errors | baseline req/s | baseline p99 ms | baseline CPU µs/req (server + DB) | req/s ratio | CPU ratio | CPU ratio +DB | machine busy |',
  );
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of report.scenarios) {
    if (s.mix && !s.summary) continue;
    if (s.status !== 'ok' || !s.summary) {
      lines.push(
        `| ${s.name} | | ${s.status === 'not_available' ? 'not available in this build' : s.status === 'ok' ? 'probes only: see Notes' : 'failed'} | | | | | | | | | | | | | | |`,
      );
      continue;
    }
    const m = s.summary;
    const unit = s.unit === 'requests' ? '' : ` ${s.unit}`;
    lines.push(
      `| ${s.name} | ${baselineLabel(s)} | ${fmt(m.rps)}${unit} | ${fmt(m.latency_p50_ms, 1)} | ${fmt(m.latency_p95_ms, 1)} | ${fmt(m.latency_p99_ms, 1)} | ${fmt(m.server_cpu_us_per_request)} | ${fmt(m.db_cpu_us_per_request)} | ${fmt(m.non2xx)} | ${fmt(m.errors)} | ${fmt(m.baseline_rps)} | ${fmt(m.baseline_latency_p99_ms, 1)} | ${fmt(m.baseline_cpu_us_per_request)} + ${fmt(m.baseline_db_cpu_us_per_request)} | ${fmt(m.ratio * 100, 1)}% | ${fmt(m.cpu_ratio * 100, 1)}% | ${fmt(m.total_cpu_ratio * 100, 1)}% | ${fmt(m.machine_busy * 100)}% |`,
    );
  }
  const judged = report.scenarios.filter((s) => s.goal && s.summary);
  if (judged.length > 0) {
    lines.push('', '## Goals (issue 15): ratios to the paired baseline', '');
    lines.push(
      '| Scenario | paired with | work compared (service / baseline) | goal | req/s ratio | p99 ÷ baseline p99 | p95 ms | CPU/req +DB ÷ baseline | verdict |',
    );
    lines.push('|---|---|---|---|---:|---:|---:|---:|---|');
    for (const s of judged) {
      const m = s.summary!;
      const v = verdict(s.goal!, m);
      const text = v.met ? 'met' : `not met (${v.missed.join(', ')})`;
      lines.push(
        `| ${s.name} | ${baselineLabel(s)} | ${s.work ? `${s.work.service} / ${s.work.baseline}` : '—'} | ${goalText(s.goal!)} | ${fmt(m.ratio, 2)}× | ${fmt(m.p99_factor, 2)}× | ${fmt(m.latency_p95_ms, 1)} | ${fmt(cpuFactor(m), 2)}× | ${text}${trial ? ' (trial)' : ''} |`,
      );
    }
  }
  // The issue's steady load is 10 minutes: a shorter mix is a trial whatever the other runs were.
  for (const s of report.scenarios) if (s.mix) lines.push(...mixMarkdown(s.name, s.mix, trial || s.mix.duration_s < 600));
  const notes = report.scenarios.filter((s) => s.reason || s.extra);
  if (notes.length > 0) {
    lines.push('', '## Notes', '');
    for (const s of notes) {
      if (s.reason) lines.push(`- **${s.name}**: ${s.reason}`);
      if (s.extra) {
        lines.push(
          `- **${s.name}**: ${Object.entries(s.extra)
            .map(([k, v]) => `${k} = ${fmt(v, Number.isInteger(v) ? 0 : 2)}`)
            .join(', ')}`,
        );
      }
    }
  }
  lines.push('');
  return lines.join('\n');
}

/** Writes `<timestamp>.json`; also `latest.json` and `latest.md` unless `latest` is false (profiled runs). */
export function writeReport(resultsDir: string, report: BenchReport, latest = true): string[] {
  mkdirSync(resultsDir, { recursive: true });
  const stamp = report.started_at.replace(/[:.]/g, '-');
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const written = [join(resultsDir, `${stamp}.json`)];
  writeFileSync(written[0]!, json);
  if (latest) {
    writeFileSync(join(resultsDir, 'latest.json'), json);
    writeFileSync(join(resultsDir, 'latest.md'), toMarkdown(report));
    written.push(join(resultsDir, 'latest.json'), join(resultsDir, 'latest.md'));
  }
  return written;
}
