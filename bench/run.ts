/**
 * Benchmark runner: `npm run bench -- <scenario...|all|list> [--runs N] [--duration S] [--connections C] [--warmup S] [--rate R] [--mix-duration S]`.
 * The npm script builds first; see docs/performance.md for what every figure means.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { LoadJob } from './load.js';
import { ROOT, startEnvironment, type Environment } from './lib/environment.js';
import { runLoad } from './lib/load-client.js';
import { Cleanup } from './lib/processes.js';
import { cpuMicrosBetween, machineBusyShare, machineCpu, machineInfo, rssBytes, ticksOf } from './lib/proc.js';
import { profileMarkdown, summarizeProfiles } from './lib/profile.js';
import { loadScenarios } from './lib/registry.js';
import {
  type BenchReport,
  type Measured,
  type MixResult,
  type MixSample,
  type RunPair,
  type ScenarioResult,
  summarize,
  toMarkdown,
  writeReport,
} from './lib/report.js';
import type { DrainPlan, LoadPlan, RequestSpec, RunCheck, Scenario } from './scenario.js';

const USAGE = `usage: npm run bench -- <scenario...|all|list> [--runs N] [--duration S] [--connections C] [--warmup S] [--rate R] [--mix-duration S] [--default-config] [--profile]
  defaults: --runs 3 --duration 10 --connections 50 --warmup min(5, duration) --mix-duration 600 (steady-mix: the fixed-rate run, once)
  --rate: total req/s of a fixed-rate mix (steady-mix); default a third of the capacity its unthrottled warm-up measures
  --default-config: the service's defaults instead of the tuned setting: rate limits counted on every request (a limit
             no run reaches) and events processed by the in-process workers while events-ingest measures accepts
  --profile: run the service under node --cpu-prof and write bench/results/profile-latest.md (slows it down: figures
             of a profiled invocation are not comparable)`;

// Benchmarks that are not load scenarios and take their own options: `npm run bench -- retention-delete --threads N`.
const STANDALONE: Record<string, string> = { 'retention-delete': './retention-delete.js' };
const standalone = STANDALONE[process.argv[2] ?? ''];
if (standalone) await import(standalone); // runs it and exits

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string' },
    rate: { type: 'string' },
    'mix-duration': { type: 'string', default: '600' },
    profile: { type: 'boolean', default: false },
    'default-config': { type: 'boolean', default: false },
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
const rate = values.rate === undefined ? undefined : positiveInt('rate', values.rate, 1);
const mixDuration = positiveInt('mix-duration', values['mix-duration'], 1);
const configuration = values['default-config'] ? 'default' : 'tuned';
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

/**
 * One autocannon run against `baseUrl`, with the CPU of `serverPid` (and of the database backends `dbPids` lists)
 * sampled around it. The backends are listed at the start and again at the end: a pool opens connections as the
 * load arrives (and closes idle ones between runs), so a backend born during the run counts from zero.
 */
async function measure(
  env: Environment,
  baseUrl: string,
  plan: Pick<LoadPlan, 'requests' | 'idReplacement'>,
  seconds: number,
  serverPid: number,
  dbPids: () => Promise<number[]>,
  cleanup: Cleanup,
): Promise<Measured> {
  const dbStart = await dbPids();
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
      dbBefore = ticksOf(dbStart);
    },
  });
  const after = sample([serverPid]);
  const dbAfter = ticksOf([...new Set([...dbStart, ...(await dbPids())])]);
  const result = outcome.autocannon;
  if (!result || !before || !dbBefore) throw new Error('the load generator returned no autocannon result');
  const requests = Math.max(result.requests, 1);
  return {
    requests: result.requests,
    duration_s: result.duration_s,
    rps: result.rps,
    latency_p50_ms: result.latency_p50_ms,
    latency_p95_ms: result.latency_p95_ms,
    latency_p99_ms: result.latency_p99_ms,
    latency_max_ms: result.latency_max_ms,
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

/** The paired run of a scenario: the bare Fastify /health, its same-work baseline loaded with the same plan, or the service with the plan's baseline load. */
function baselineOf(env: Environment, scenario: Scenario, plan: LoadPlan) {
  if (scenario.baseline === 'self') {
    if (!plan.baseline) throw new Error(`${scenario.name}: baseline 'self' needs the plan's baseline requests`);
    return {
      url: env.ctx.baseUrl,
      plan: { requests: plan.baseline.requests, idReplacement: plan.idReplacement },
      pid: env.service.pid,
      dbPids: () => env.databaseBackendPids(),
      reset: plan.resetBaseline ?? (async () => {}),
    };
  }
  if ((scenario.baseline ?? 'bare-fastify') === 'bare-fastify') {
    return {
      url: env.baselineUrl,
      plan: { requests: [BASELINE_REQUEST] },
      pid: env.baseline.pid,
      dbPids: async () => [],
      reset: async () => {},
    };
  }
  return {
    url: env.sameWorkUrl,
    plan,
    pid: env.sameWork.pid,
    dbPids: () => env.databaseBackendPids('same-work'),
    reset: () => env.resetSameWork(),
  };
}

/** Paths (`message.cards[]`) where two JSON values differ in type or keys: the baseline must answer the same shape. */
function shapeDifferences(a: unknown, b: unknown, path = '$'): string[] {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(a) !== kind(b)) return [`${path}: ${kind(a)} vs ${kind(b)}`];
  if (Array.isArray(a) && Array.isArray(b)) return a.length > 0 && b.length > 0 ? shapeDifferences(a[0], b[0], `${path}[]`) : [];
  if (kind(a) !== 'object') return [];
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])];
  return keys.flatMap((key) =>
    key in x && key in y
      ? shapeDifferences(x[key], y[key], `${path}.${key}`)
      : [`${path}.${key}: only in ${key in x ? 'the service' : 'the baseline'}`],
  );
}

/** Sends the plan's first request to the service and to its same-work baseline; returns where the answers' shapes differ. */
async function compareAnswers(serviceUrl: string, baselineUrl: string, spec: RequestSpec): Promise<string[]> {
  const answers = await Promise.all(
    [serviceUrl, baselineUrl].map(async (base) => {
      const id = Math.random().toString(16).slice(2, 10);
      const raw = spec.bodies?.[0] ?? spec.body;
      const body = raw === undefined ? undefined : JSON.stringify(raw).replaceAll('[<id>]', id);
      const headers = { ...(spec.headers ?? {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
      const response = await fetch(base + (spec.paths?.[0] ?? spec.path), { method: spec.method, headers, body });
      return { status: response.status, json: (await response.json()) as unknown };
    }),
  );
  const [service, baseline] = answers as [{ status: number; json: unknown }, { status: number; json: unknown }];
  const status = service.status === baseline.status ? [] : [`status ${service.status} vs ${baseline.status}`];
  return [...status, ...shapeDifferences(service.json, baseline.json)];
}

const addFigures = (into: Record<string, number>, figures: Record<string, number>) => {
  for (const [key, value] of Object.entries(figures)) into[key] = (into[key] ?? 0) + value;
};

/** Least-squares slope of y over x (per unit of x). */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxx > 0 ? points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / sxx : 0;
}

/** prom-client's event-loop delay gauges (reset at every scrape, so each sample covers the window since the last). */
async function eventLoopDelay(metricsUrl: string): Promise<Pick<MixSample, 'loop_p99_ms' | 'loop_max_ms'>> {
  try {
    const text = await (await fetch(metricsUrl, { signal: AbortSignal.timeout(2000) })).text();
    const gauge = (name: string) => {
      const match = new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text);
      return match?.[1] === undefined ? undefined : Number(match[1]) * 1000;
    };
    const p99 = gauge('nodejs_eventloop_lag_p99_seconds');
    const max = gauge('nodejs_eventloop_lag_max_seconds');
    return p99 === undefined || max === undefined ? {} : { loop_p99_ms: p99, loop_max_ms: max };
  } catch {
    return {};
  }
}

/**
 * A fixed-rate mix: every route at once on its share of the connections and of the rate (0 = unthrottled, to
 * measure capacity), the service's RSS and event-loop delay sampled while it runs.
 */
async function runMix(env: Environment, mix: NonNullable<LoadPlan['mix']>, total: number, seconds: number, cleanup: Cleanup) {
  const shares = mix.routes.reduce((a, r) => a + r.share, 0);
  const routes = mix.routes.map((route) => ({
    name: route.name,
    connections: Math.max(1, Math.round((mix.connections * route.share) / shares)),
    rate: total > 0 ? Math.max(1, Math.round((total * route.share) / shares)) : 0,
    requests: [route.request],
    idReplacement: route.idReplacement,
  }));
  const samples: MixSample[] = [];
  const every = Math.max(1, Math.round(seconds / 60)) * 1000;
  let timer: NodeJS.Timeout | undefined;
  let started = 0;
  let before: Sample | undefined;
  let dbBefore: Map<number, number> | undefined;
  const dbPids = await env.databaseBackendPids();
  const takeSample = async () => {
    const rss = rssBytes(env.service.pid) ?? 0;
    samples.push({
      t_s: Math.round((performance.now() - started) / 100) / 10,
      rss_mib: rss / 2 ** 20,
      ...(await eventLoopDelay(env.metricsUrl)),
    });
  };
  const outcome = await runLoad({ kind: 'mix', baseUrl: env.ctx.baseUrl, duration: seconds, routes }, env.workDir, cleanup, {
    beforeStart: () => {
      before = sample([env.service.pid]);
      dbBefore = ticksOf(dbPids);
      started = performance.now();
      void eventLoopDelay(env.metricsUrl); // resets the window
      timer = setInterval(() => void takeSample(), every);
    },
  });
  clearInterval(timer);
  await takeSample();
  const after = sample([env.service.pid]);
  // The pool opens backends during the run too (its idle ones close between runs): list them again, as measure() does.
  const dbAfter = ticksOf([...new Set([...dbPids, ...(await env.databaseBackendPids())])]);
  if (!outcome.mix || !before || !dbBefore) throw new Error('the load generator returned no mix result');
  const requests = Math.max(
    Object.values(outcome.mix).reduce((a, r) => a + r.requests, 0),
    1,
  );
  return { routes, outcome: outcome.mix, samples, requests, before, after, dbBefore, dbAfter };
}

async function runSteadyMix(env: Environment, scenario: Scenario, mix: NonNullable<LoadPlan['mix']>, cleanup: Cleanup): Promise<MixResult> {
  const settle = async () => {
    if (scenario.settle) await scenario.settle(env.ctx);
  };
  let capacity: number | undefined;
  if (warmup > 0) {
    log(`${scenario.name}: warm-up ${warmup} s unthrottled (discarded${rate ? '' : '; it measures the capacity the rate is a third of'})`);
    const w = await runMix(env, mix, 0, warmup, cleanup);
    capacity = w.requests / warmup;
    await settle();
  }
  const total = rate ?? (capacity ? Math.max(1, Math.round(capacity / 3)) : undefined);
  if (!total) throw new Error('steady-mix needs --rate, or a warm-up (--warmup > 0) to measure the capacity');
  log(`${scenario.name}: ${total} req/s for ${mixDuration} s on ${mix.connections} connections`);
  const loadStart = loadavg();
  const run = await runMix(env, mix, total, mixDuration, cleanup);
  await settle();
  const half = run.samples.filter((x) => x.t_s >= mixDuration / 2);
  return {
    rate_rps: total,
    rate_source: rate ? '--rate' : 'a third of the warm-up capacity',
    capacity_rps: capacity,
    duration_s: mixDuration,
    connections: mix.connections,
    routes: Object.fromEntries(
      run.routes.map((route) => {
        const r = run.outcome[route.name]!;
        return [
          route.name,
          {
            target_rps: route.rate,
            requests: r.requests,
            rps: r.rps,
            latency_p50_ms: r.latency_p50_ms,
            latency_p95_ms: r.latency_p95_ms,
            latency_p99_ms: r.latency_p99_ms,
            latency_max_ms: r.latency_max_ms,
            non2xx: r.non2xx,
            errors: r.errors + r.timeouts,
            status_codes: r.status_codes,
          },
        ];
      }),
    ),
    server_cpu_us_per_request: cpuMicrosBetween(run.before.cpu, run.after.cpu) / run.requests,
    db_cpu_us_per_request: cpuMicrosBetween(run.dbBefore, run.dbAfter) / run.requests,
    machine_busy: machineBusyShare(run.before.machine, run.after.machine),
    samples: run.samples,
    rss_growth_mib_per_min: slope(half.map((x) => [x.t_s / 60, x.rss_mib])),
    load_average: loadStart.map((v, i) => (v + (loadavg()[i] ?? v)) / 2),
  };
}

/**
 * A drain scenario's runs: each pairs an autocannon run of the plan's baseline load (e.g. synchronous turns) with the
 * service draining as many items (e.g. the same turns accepted as events), its CPU and its backends' sampled around
 * the drain. Latency columns are the baseline's only (a drain has no per-request latency).
 */
async function runDrains(env: Environment, scenario: Scenario, plan: LoadPlan, drain: DrainPlan, cleanup: Cleanup): Promise<RunPair[]> {
  if (!plan.baseline) throw new Error(`${scenario.name}: a drain needs the plan's baseline requests to pair with`);
  const paired = { requests: plan.baseline.requests };
  const drainOnce = async (count: number): Promise<Measured> => {
    await drain.prepare(count);
    const dbStart = await env.databaseBackendPids();
    const before = sample([env.service.pid]);
    const dbBefore = ticksOf(dbStart);
    await drain.start();
    const outcome = await drain.finished();
    const after = sample([env.service.pid]);
    const dbAfter = ticksOf([...new Set([...dbStart, ...(await env.databaseBackendPids())])]);
    const items = Math.max(outcome.done + outcome.failed, 1);
    return {
      requests: outcome.done,
      duration_s: outcome.seconds,
      rps: outcome.seconds > 0 ? outcome.done / outcome.seconds : 0,
      latency_p50_ms: 0,
      latency_p95_ms: 0,
      latency_p99_ms: 0,
      latency_max_ms: 0,
      non2xx: outcome.failed,
      errors: 0,
      timeouts: 0,
      status_codes: { done: outcome.done, failed: outcome.failed },
      server_cpu_us_per_request: cpuMicrosBetween(before.cpu, after.cpu) / items,
      db_cpu_us_per_request: cpuMicrosBetween(dbBefore, dbAfter) / items,
      loadgen_cpu_us_per_request: 0,
      machine_busy: machineBusyShare(before.machine, after.machine),
    };
  };
  if (warmup > 0) {
    log(`${scenario.name}: warm-up ${warmup} s (${plan.baseline.label}, then a drain of as many; discarded)`);
    const w = await measure(env, env.ctx.baseUrl, paired, warmup, env.service.pid, async () => [], cleanup);
    await drainOnce(Math.max(1, w.requests));
  }
  const pairs: RunPair[] = [];
  for (let i = 1; i <= runs; i++) {
    const baseline = await measure(env, env.ctx.baseUrl, paired, duration, env.service.pid, () => env.databaseBackendPids(), cleanup);
    const measured = await drainOnce(Math.max(1, baseline.requests));
    const pair: RunPair = { scenario: measured, baseline, ratio: baseline.rps > 0 ? measured.rps / baseline.rps : 0 };
    pairs.push(pair);
    log(
      `${scenario.name}: run ${i}/${runs}: drained ${measured.requests} in ${measured.duration_s.toFixed(1)} s = ${measured.rps.toFixed(0)}/s, ` +
        `${measured.server_cpu_us_per_request.toFixed(0)} µs service CPU + ${measured.db_cpu_us_per_request.toFixed(0)} µs DB CPU each, failed ${measured.non2xx}; ` +
        `${plan.baseline.label} ${baseline.rps.toFixed(0)}/s, ${baseline.server_cpu_us_per_request.toFixed(0)} µs + ${baseline.db_cpu_us_per_request.toFixed(0)} µs → ${(pair.ratio * 100).toFixed(1)}% (load average ${loadavg()[0]?.toFixed(1)})`,
    );
  }
  return pairs;
}

async function runScenario(env: Environment, scenario: Scenario, cleanup: Cleanup): Promise<ScenarioResult> {
  const result: ScenarioResult = {
    name: scenario.name,
    description: scenario.description,
    status: 'ok',
    unit: 'requests',
    baseline: scenario.baseline ?? 'bare-fastify',
    goal: scenario.goal,
    work: scenario.work,
    runs: [],
  };
  const availability = scenario.available ? await scenario.available(env.ctx) : true;
  if (availability !== true) {
    log(`${scenario.name}: ${availability.reason}`);
    return { ...result, status: 'not_available', reason: availability.reason };
  }
  log(`${scenario.name}: seeding`);
  const plan = await scenario.seed(env.ctx);
  result.unit = plan.unit ?? 'requests';
  if (plan.baseline) result.baseline_label = plan.baseline.label;
  const settle = async () => {
    if (scenario.settle) await scenario.settle(env.ctx);
  };

  if (plan.requests.length > 0) {
    const paired = baselineOf(env, scenario, plan);
    if (paired.url === env.sameWorkUrl && plan.requests[0]) {
      const differences = await compareAnswers(env.ctx.baseUrl, paired.url, plan.requests[0]);
      await paired.reset();
      await settle();
      if (differences.length > 0) throw new Error(`${result.baseline} does not answer what the service answers: ${differences.join('; ')}`);
      log(`${scenario.name}: the service and ${result.baseline} answer the same status and JSON shape`);
    }
    if (warmup > 0) {
      log(`${scenario.name}: warm-up ${warmup} s (${result.baseline}, then scenario; discarded)`);
      await measure(env, paired.url, paired.plan, warmup, paired.pid, async () => [], cleanup);
      await paired.reset();
      await measure(env, env.ctx.baseUrl, plan, warmup, env.service.pid, async () => [], cleanup);
      await settle();
    }
    const checked: Record<string, number> = {};
    for (let i = 1; i <= runs; i++) {
      const baseline = await measure(env, paired.url, paired.plan, duration, paired.pid, paired.dbPids, cleanup);
      await paired.reset();
      const check: RunCheck | undefined = await scenario.check?.(env.ctx);
      const measured = await measure(env, env.ctx.baseUrl, plan, duration, env.service.pid, () => env.databaseBackendPids(), cleanup);
      await settle();
      if (check) addFigures(checked, await check(measured));
      const pair: RunPair = { scenario: measured, baseline, ratio: baseline.rps > 0 ? measured.rps / baseline.rps : 0 };
      result.runs.push(pair);
      log(
        `${scenario.name}: run ${i}/${runs}: ${measured.rps.toFixed(0)} ${result.unit}/s, p50 ${measured.latency_p50_ms} ms, p99 ${measured.latency_p99_ms} ms, ` +
          `${measured.server_cpu_us_per_request.toFixed(0)} µs CPU/req, non-2xx ${measured.non2xx}; ${result.baseline} ${baseline.rps.toFixed(0)} req/s, ` +
          `p99 ${baseline.latency_p99_ms} ms, ${baseline.server_cpu_us_per_request.toFixed(0)} µs CPU/req → ${(pair.ratio * 100).toFixed(1)}% (load average ${loadavg()[0]?.toFixed(1)})`,
      );
      if (measured.non2xx > 0) log(`${scenario.name}: status codes ${JSON.stringify(measured.status_codes)}`);
      if (baseline.non2xx > 0) log(`${scenario.name}: ${result.baseline} status codes ${JSON.stringify(baseline.status_codes)}`);
    }
    result.summary = summarize(result.runs);
    if (Object.keys(checked).length > 0) result.extra = { ...(result.extra ?? {}), ...checked };
  }

  if (plan.drain) {
    result.runs = await runDrains(env, scenario, plan, plan.drain, cleanup);
    result.summary = summarize(result.runs);
  }

  if (plan.mix) result.mix = await runSteadyMix(env, scenario, plan.mix, cleanup);

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
const loadStart = loadavg();
const results: ScenarioResult[] = [];
let failed = false;
let autovacuum: boolean | undefined;
const profileDir = values.profile ? mkdtempSync(join(tmpdir(), 'agent-bench-profile-')) : undefined;
const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`;
try {
  const env = await startEnvironment(cleanup, { connections, profileDir, configuration });
  autovacuum = env.autovacuum;
  for (const scenario of selected) {
    try {
      results.push(await runScenario(env, scenario, cleanup).finally(() => scenario.finish?.(env.ctx)));
    } catch (error) {
      failed = true;
      log(`${scenario.name}: FAILED: ${(error as Error).message}`);
      results.push({
        name: scenario.name,
        description: scenario.description,
        baseline: scenario.baseline ?? 'bare-fastify',
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
    options: {
      runs,
      duration_s: duration,
      warmup_s: warmup,
      connections,
      mix_duration_s: mixDuration,
      configuration,
      ...(rate ? { rate } : {}),
    },
    load_average: { start: loadStart, end: loadavg() },
    ...(autovacuum === undefined ? {} : { autovacuum }),
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
