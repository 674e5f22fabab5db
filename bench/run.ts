/**
 * Benchmark runner: `npm run bench -- <scenario...|all|list> [--runs N] [--duration S] [--connections C] [--warmup S]`.
 * The npm script builds first; see docs/performance.md for what every figure means.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { LoadJob } from './load.js';
import { ROOT, startEnvironment, type Environment } from './lib/environment.js';
import { runLoad } from './lib/load-client.js';
import { Cleanup } from './lib/processes.js';
import { cpuMicrosBetween, machineBusyShare, machineCpu, machineInfo, rssBytes, ticksOf } from './lib/proc.js';
import { profileMarkdown, summarizeProfiles } from './lib/profile.js';
import { loadScenarios } from './lib/registry.js';
import { type BenchReport, type Measured, type RunPair, type ScenarioResult, summarize, toMarkdown, writeReport } from './lib/report.js';
import type { LoadPlan, RequestSpec, Scenario } from './scenario.js';

const USAGE = `usage: npm run bench -- <scenario...|all|list> [--runs N] [--duration S] [--connections C] [--warmup S] [--profile]
  defaults: --runs 3 --duration 10 --connections 50 --warmup min(5, duration)
  --profile: run the service under node --cpu-prof and write bench/results/profile-latest.md (slows it down: figures
             of a profiled invocation are not comparable)`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string' },
    profile: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});

const positiveInt = (name: string, raw: string | undefined, min: number): number => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    process.stderr.write(`--${name} must be an integer ≥ ${min}\n${USAGE}\n`);
    process.exit(2);
  }
  return n;
};

const runs = positiveInt('runs', values.runs, 1);
const duration = positiveInt('duration', values.duration, 1);
const connections = positiveInt('connections', values.connections, 1);
const warmup = values.warmup === undefined ? Math.min(5, duration) : positiveInt('warmup', values.warmup, 0);
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

const registry = await loadScenarios();
if (values.help || positionals.length === 0 || positionals[0] === 'list') {
  process.stdout.write(`${USAGE}\n\nscenarios:\n${registry.map((s) => `  ${s.name.padEnd(26)} ${s.description}`).join('\n')}\n`);
  process.exit(values.help || positionals[0] === 'list' ? 0 : 2);
}
const selected: Scenario[] = [];
for (const name of positionals) {
  if (name === 'all') selected.push(...registry.filter((s) => s.inAll !== false && !selected.includes(s)));
  else {
    const scenario = registry.find((s) => s.name === name);
    if (!scenario) {
      process.stderr.write(`unknown scenario "${name}"; known: ${registry.map((s) => s.name).join(', ')}\n`);
      process.exit(2);
    }
    if (!selected.includes(scenario)) selected.push(scenario);
  }
}

const BASELINE_REQUEST: RequestSpec = { method: 'GET', path: '/health' };

interface Sample {
  pids: number[];
  cpu: Map<number, number>;
  machine: ReturnType<typeof machineCpu>;
}
const sample = (pids: number[]): Sample => ({ pids, cpu: ticksOf(pids), machine: machineCpu() });

/** One autocannon run against `baseUrl`, with the CPU of `serverPids` (and `dbPids`) sampled around it. */
async function measure(
  env: Environment,
  baseUrl: string,
  plan: Pick<LoadPlan, 'requests' | 'idReplacement'>,
  seconds: number,
  serverPid: number,
  dbPids: number[],
  cleanup: Cleanup,
): Promise<Measured & { db_cpu_us_per_request: number }> {
  const job: LoadJob = {
    kind: 'autocannon',
    baseUrl,
    connections,
    duration: seconds,
    requests: plan.requests,
    idReplacement: plan.idReplacement,
  };
  let before: Sample | undefined;
  let dbBefore: Map<number, number> | undefined;
  const outcome = await runLoad(job, env.workDir, cleanup, {
    beforeStart: () => {
      before = sample([serverPid]);
      dbBefore = ticksOf(dbPids);
    },
  });
  const after = sample([serverPid]);
  const dbAfter = ticksOf(dbPids);
  const result = outcome.autocannon;
  if (!result || !before || !dbBefore) throw new Error('the load generator returned no autocannon result');
  const requests = Math.max(result.requests, 1);
  return {
    requests: result.requests,
    duration_s: result.duration_s,
    rps: result.rps,
    latency_p50_ms: result.latency_p50_ms,
    latency_p99_ms: result.latency_p99_ms,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    status_codes: result.status_codes,
    server_cpu_us_per_request: cpuMicrosBetween(before.cpu, after.cpu) / requests,
    db_cpu_us_per_request: cpuMicrosBetween(dbBefore, dbAfter) / requests,
    loadgen_cpu_us_per_request: result.loadgen_cpu_us / requests,
    machine_busy: machineBusyShare(before.machine, after.machine),
  };
}

async function runScenario(env: Environment, scenario: Scenario, cleanup: Cleanup): Promise<ScenarioResult> {
  const result: ScenarioResult = { name: scenario.name, description: scenario.description, status: 'ok', unit: 'requests', runs: [] };
  const availability = scenario.available ? await scenario.available(env.ctx) : true;
  if (availability !== true) {
    log(`${scenario.name}: ${availability.reason}`);
    return { ...result, status: 'not_available', reason: availability.reason };
  }
  log(`${scenario.name}: seeding`);
  const plan = await scenario.seed(env.ctx);
  result.unit = plan.unit ?? 'requests';
  const settle = async () => {
    if (scenario.settle) await scenario.settle(env.ctx);
  };

  if (plan.requests.length > 0) {
    const baselinePlan = { requests: [BASELINE_REQUEST] };
    if (warmup > 0) {
      log(`${scenario.name}: warm-up ${warmup} s (baseline, then scenario; discarded)`);
      await measure(env, env.baselineUrl, baselinePlan, warmup, env.baseline.pid, [], cleanup);
      await measure(env, env.ctx.baseUrl, plan, warmup, env.service.pid, [], cleanup);
      await settle();
    }
    for (let i = 1; i <= runs; i++) {
      const baseline = await measure(env, env.baselineUrl, baselinePlan, duration, env.baseline.pid, [], cleanup);
      const dbPids = await env.databaseBackendPids();
      const measured = await measure(env, env.ctx.baseUrl, plan, duration, env.service.pid, dbPids, cleanup);
      await settle();
      const pair: RunPair = { scenario: measured, baseline, ratio: baseline.rps > 0 ? measured.rps / baseline.rps : 0 };
      result.runs.push(pair);
      log(
        `${scenario.name}: run ${i}/${runs}: ${measured.rps.toFixed(0)} ${result.unit}/s, p50 ${measured.latency_p50_ms} ms, p99 ${measured.latency_p99_ms} ms, ` +
          `${measured.server_cpu_us_per_request.toFixed(0)} µs CPU/req, non-2xx ${measured.non2xx}; baseline ${baseline.rps.toFixed(0)} req/s → ${(pair.ratio * 100).toFixed(1)}%`,
      );
      if (measured.non2xx > 0) log(`${scenario.name}: status codes ${JSON.stringify(measured.status_codes)}`);
    }
    result.summary = summarize(result.runs);
  }

  for (const probe of plan.probes ?? []) {
    log(`${scenario.name}: probe ${probe.kind}`);
    const rssBefore = rssBytes(env.service.pid) ?? 0;
    let rssHeld = 0;
    const outcome = await runLoad({ kind: 'probe', baseUrl: env.ctx.baseUrl, probe }, env.workDir, cleanup, {
      onHold: () => {
        rssHeld = rssBytes(env.service.pid) ?? 0;
      },
    });
    result.extra = { ...(result.extra ?? {}), ...(outcome.extra ?? {}) };
    if (probe.kind === 'ws-idle') {
      const opened = outcome.extra?.sessions_opened ?? 0;
      result.extra.server_rss_before_mib = rssBefore / 2 ** 20;
      result.extra.server_rss_held_mib = rssHeld / 2 ** 20;
      if (opened > 0) result.extra.rss_per_session_kib = (rssHeld - rssBefore) / 1024 / opened;
    }
  }
  return result;
}

const cleanup = new Cleanup();
cleanup.installSignalHandlers();
const startedAt = new Date().toISOString();
const results: ScenarioResult[] = [];
let failed = false;
const profileDir = values.profile ? mkdtempSync(join(tmpdir(), 'agent-bench-profile-')) : undefined;
const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`;
try {
  const env = await startEnvironment(cleanup, { connections, profileDir });
  for (const scenario of selected) {
    try {
      results.push(await runScenario(env, scenario, cleanup));
    } catch (error) {
      failed = true;
      log(`${scenario.name}: FAILED: ${(error as Error).message}`);
      results.push({
        name: scenario.name,
        description: scenario.description,
        status: 'failed',
        reason: (error as Error).message.split('\n')[0],
        unit: 'requests',
        runs: [],
      });
    }
  }
} catch (error) {
  failed = true;
  log(`FAILED: ${(error as Error).stack ?? String(error)}`);
} finally {
  log('stopping everything this run started');
  await cleanup.runAll();
}

if (results.length > 0) {
  const report: BenchReport = {
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    command,
    machine: machineInfo(),
    options: { runs, duration_s: duration, warmup_s: warmup, connections },
    note: 'The load generator (autocannon, its own process), the service, PostgreSQL and Redis share the same cores: compare ratios and CPU per request, not absolute req/s, across machines.',
    scenarios: results,
  };
  if (profileDir) report.profiled = true;
  const written = writeReport(join(ROOT, 'bench/results'), report, !profileDir);
  process.stdout.write(`\n${toMarkdown(report)}\n`);
  log(`results: ${written.join(', ')}${profileDir ? ' (profiled: latest.* left as they were)' : ''}`);
}
if (profileDir) {
  const summary = summarizeProfiles(profileDir);
  if (summary) {
    const file = join(ROOT, 'bench/results/profile-latest.md');
    writeFileSync(file, profileMarkdown(summary, command));
    process.stdout.write(`\n${profileMarkdown(summary, command)}\n`);
    log(`profile: ${file} (raw .cpuprofile files in ${profileDir}, open them in Chrome DevTools)`);
  } else {
    log(`no CPU profile found in ${profileDir} (did the service exit cleanly?)`);
  }
}
process.exit(failed ? 1 : 0);
