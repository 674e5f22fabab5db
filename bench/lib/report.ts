/** Result shapes, aggregation, and the JSON + Markdown outputs under `bench/results/`. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MachineInfo } from './proc.js';

export interface Measured {
  requests: number;
  duration_s: number;
  rps: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  status_codes: Record<string, number>;
  /** Server process CPU (utime + stime) per completed request, µs. */
  server_cpu_us_per_request: number;
  loadgen_cpu_us_per_request: number;
  /** Share of all cores busy during the run (everything on the machine). */
  machine_busy: number;
}

export interface RunPair {
  scenario: Measured & { db_cpu_us_per_request: number };
  baseline: Measured;
  ratio: number;
}

export interface ScenarioResult {
  name: string;
  description: string;
  status: 'ok' | 'not_available' | 'failed';
  reason?: string;
  unit: string;
  runs: RunPair[];
  summary?: {
    rps: number;
    latency_p50_ms: number;
    latency_p99_ms: number;
    server_cpu_us_per_request: number;
    db_cpu_us_per_request: number;
    non2xx: number;
    errors: number;
    baseline_rps: number;
    baseline_cpu_us_per_request: number;
    ratio: number;
    /** Baseline CPU per request over the scenario's: the share of the baseline's efficiency the route keeps. */
    cpu_ratio: number;
    machine_busy: number;
  };
  /** Probe figures (first-delta latency, sessions held, RSS ...). */
  extra?: Record<string, number>;
}

export interface BenchReport {
  started_at: string;
  finished_at: string;
  command: string;
  machine: MachineInfo;
  options: { runs: number; duration_s: number; warmup_s: number; connections: number };
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
  const baselineCpu = weighted(b, (m) => m.server_cpu_us_per_request);
  return {
    rps: median(s.map((m) => m.rps)),
    latency_p50_ms: median(s.map((m) => m.latency_p50_ms)),
    latency_p99_ms: median(s.map((m) => m.latency_p99_ms)),
    server_cpu_us_per_request: serverCpu,
    db_cpu_us_per_request: weighted(s, (m) => (m as RunPair['scenario']).db_cpu_us_per_request),
    non2xx: sum(s.map((m) => m.non2xx)),
    errors: sum(s.map((m) => m.errors + m.timeouts)),
    baseline_rps: median(b.map((m) => m.rps)),
    baseline_cpu_us_per_request: baselineCpu,
    ratio: median(runs.map((r) => r.ratio)),
    cpu_ratio: serverCpu > 0 ? baselineCpu / serverCpu : 0,
    machine_busy: median(s.map((m) => m.machine_busy)),
  };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function toMarkdown(report: BenchReport): string {
  const lines: string[] = [];
  lines.push(`# Benchmark results`, '');
  lines.push(`- Command: \`${report.command}\``);
  lines.push(`- When: ${report.started_at} → ${report.finished_at}`);
  lines.push(
    `- Machine: ${report.machine.cores} cores, ${report.machine.cpu_model}, ${report.machine.memory_gib} GiB, Node ${report.machine.node}, Linux ${report.machine.kernel}`,
  );
  lines.push(
    `- Load: ${report.options.connections} connections, warm-up ${report.options.warmup_s} s discarded, ${report.options.runs} × ${report.options.duration_s} s measured (medians shown); each run is paired with a baseline run just before it`,
  );
  if (report.options.runs < 3 || report.options.duration_s < 10) {
    lines.push(`- **Trial only**: shorter than the default 3 × 10 s; not a figure to quote.`);
  }
  lines.push(`- ${report.note}`);
  lines.push(
    '- req/s ratio = scenario req/s ÷ baseline req/s (paired runs, median); CPU ratio = baseline CPU µs/req ÷ scenario CPU µs/req',
    '',
  );
  lines.push(
    '| Scenario | req/s | p50 ms | p99 ms | server CPU µs/req | DB CPU µs/req | non-2xx | errors | baseline req/s | baseline CPU µs/req | req/s ratio | CPU ratio | machine busy |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of report.scenarios) {
    if (s.status !== 'ok' || !s.summary) {
      lines.push(`| ${s.name} | ${s.status === 'not_available' ? 'not available in this build' : 'failed'} | | | | | | | | | | | |`);
      continue;
    }
    const m = s.summary;
    const unit = s.unit === 'requests' ? '' : ` ${s.unit}`;
    lines.push(
      `| ${s.name} | ${fmt(m.rps)}${unit} | ${fmt(m.latency_p50_ms, 1)} | ${fmt(m.latency_p99_ms, 1)} | ${fmt(m.server_cpu_us_per_request)} | ${fmt(m.db_cpu_us_per_request)} | ${fmt(m.non2xx)} | ${fmt(m.errors)} | ${fmt(m.baseline_rps)} | ${fmt(m.baseline_cpu_us_per_request)} | ${fmt(m.ratio * 100, 1)}% | ${fmt(m.cpu_ratio * 100, 1)}% | ${fmt(m.machine_busy * 100)}% |`,
    );
  }
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
