/**
 * The Grafana dashboard and the Prometheus alerts only query metrics the service exposes (the issue 18 metrics
 * contract plus prom-client's Node defaults), with labels those metrics carry, in PromQL that promtool parses;
 * and every alert links to a runbook section that exists in docs/operations.md.
 * (`promtool check rules/config` and `promtool test rules` on the files themselves run in .ci/run.)
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Metric → its labels. Histograms are listed by base name and queried as _bucket / _sum / _count. */
const COUNTERS_AND_GAUGES: Record<string, string[]> = {
  agent_http_requests_total: ['method', 'route', 'status_class'],
  agent_turns_total: ['surface', 'runtime', 'provider', 'outcome'],
  agent_provider_errors_total: ['provider', 'kind'],
  agent_tokens_total: ['provider', 'kind'],
  agent_events_accepted_total: [],
  agent_events_processed_total: ['outcome'],
  agent_events_retried_total: [],
  agent_channel_messages_total: ['direction', 'outcome'],
  agent_queue_jobs: ['queue', 'state'],
  agent_queue_oldest_waiting_age_seconds: ['queue'],
  agent_events_due: ['age'],
  agent_events_oldest_due_age_seconds: ['org_bucket'],
  agent_build_info: ['version', 'commit', 'node_version', 'instance_name'],
  agent_bus_relay_subscribed: [],
  agent_bus_relay_messages_total: ['direction'],
  agent_revocation_listener_connected: [],
  agent_revocation_listener_disconnects_total: [],
  agent_revocation_notifications_total: [],
  agent_sse_streams_open: [],
  agent_ws_sessions_open: [],
  agent_stream_resumes_total: ['result'],
  agent_cache_lookups_total: ['cache', 'result'],
  agent_cache_invalidations_total: ['cache'],
  agent_db_pool_connections: ['state'],
  agent_redis_errors_total: [],
  agent_rate_limit_rejections_total: [],
  agent_rate_limit_fail_open_total: ['area'],
  // prom-client collectDefaultMetrics()
  process_cpu_seconds_total: [],
  process_resident_memory_bytes: [],
  nodejs_eventloop_lag_seconds: [],
  nodejs_eventloop_lag_p99_seconds: [],
  nodejs_heap_size_used_bytes: [],
  nodejs_heap_size_total_bytes: [],
  // Prometheus' own per-target series
  up: [],
};
const HISTOGRAMS: Record<string, string[]> = {
  agent_http_request_duration_seconds: ['method', 'route', 'status_class'],
  agent_turn_duration_seconds: ['surface', 'runtime', 'provider'],
  agent_event_processing_lag_seconds: [],
  nodejs_gc_duration_seconds: ['kind'],
};
const TARGET_LABELS = ['job', 'instance'];

const KNOWN = new Map<string, string[]>(Object.entries(COUNTERS_AND_GAUGES));
for (const [name, labels] of Object.entries(HISTOGRAMS)) {
  KNOWN.set(`${name}_bucket`, [...labels, 'le']);
  KNOWN.set(`${name}_sum`, labels);
  KNOWN.set(`${name}_count`, labels);
}
const ALL_LABELS = new Set([...[...KNOWN.values()].flat(), ...TARGET_LABELS]);

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan', 'Inf', 'NaN']);

interface Selector {
  metric: string;
  matchers: string;
}

/** Every metric selector in a PromQL expression: identifiers that are not functions, keywords or label lists. */
function selectors(expr: string): Selector[] {
  const found: Selector[] = [];
  // Blank out (same length, so offsets still point into expr) strings, label lists and range durations.
  const blank = (s: string) => ' '.repeat(s.length);
  const text = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, (s) => `"${blank(s.slice(2))}"`)
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, blank)
    .replace(/\[[^\]]*\]/g, blank);
  const identifier = /(?<![\w.:$])[A-Za-z_:][\w:]*/g;
  let match: RegExpExecArray | null;
  while ((match = identifier.exec(text)) !== null) {
    const end = match.index + match[0].length;
    if (/^\s*\(/.test(text.slice(end)) || KEYWORDS.has(match[0])) continue;
    const braces = /^\{[^}]*\}/.exec(text.slice(end))?.[0] ?? '';
    found.push({ metric: match[0], matchers: expr.slice(end + 1, end + braces.length - 1) });
    identifier.lastIndex = end + braces.length;
  }
  return found;
}

/** Label names grouped on (by/without/on/ignoring) or matched ({name=...}) in an expression. */
function labelNames(expr: string): string[] {
  const noStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const lists = [...noStrings.matchAll(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g)].map((m) => m[1]!);
  const matched = [...noStrings.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!.replace(/(=~|!~|!=|=)\s*""/g, ''));
  return [...lists, ...matched].flatMap((list) => list.split(',').map((s) => s.trim())).filter(Boolean);
}

/** The alert rules of alerts.yml as text blocks, with their `expr` (inline or a `|` block). No YAML library needed:
 *  the file keeps one rule per `- alert:` item; the count is cross-checked against `promtool check rules`. */
function alertRules(yaml: string): { name: string; expr: string; block: string }[] {
  return yaml
    .split(/^\s*- alert: /m)
    .slice(1)
    .map((block) => {
      const name = block.split('\n')[0]!.trim();
      const lines = block.split('\n');
      const at = lines.findIndex((l) => /^\s*expr:/.test(l));
      const inline = lines[at]!.replace(/^\s*expr:\s*/, '');
      let expr = inline;
      if (inline === '|' || inline === '>') {
        const indent = (l: string) => l.length - l.trimStart().length;
        const body: string[] = [];
        for (const line of lines.slice(at + 1)) {
          if (line.trim() && indent(line) <= indent(lines[at]!)) break;
          body.push(line.trim());
        }
        expr = body.join(' ').trim();
      }
      return { name, expr, block };
    });
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

describe('deploy: Grafana dashboard and Prometheus alerts', () => {
  const dashboard = JSON.parse(read('deploy/grafana/agent-service.json'));
  const panels: any[] = dashboard.panels.flatMap((p: any) => [p, ...(p.panels ?? [])]).filter((p: any) => p.type !== 'row');
  const dashboardExprs: string[] = panels.flatMap((p) => p.targets.map((t: any) => t.expr as string));
  const rules = alertRules(read('deploy/prometheus/alerts.yml'));

  it('the dashboard is importable: schema ≥ 36, a Prometheus data-source variable, job and instance variables', () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    const variables = Object.fromEntries(dashboard.templating.list.map((v: any) => [v.name, v]));
    expect(variables.datasource).toMatchObject({ type: 'datasource', query: 'prometheus' });
    expect(variables.job).toMatchObject({ type: 'query' });
    expect(variables.instance).toMatchObject({ type: 'query' });
    expect(panels.length).toBeGreaterThan(20);
    for (const panel of panels) {
      expect(panel.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets.length).toBeGreaterThan(0);
    }
    const ids = dashboard.panels.flatMap((p: any) => [p.id, ...(p.panels ?? []).map((c: any) => c.id)]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every dashboard query uses only contract metrics, each scoped to the selected job and instance', () => {
    for (const expr of dashboardExprs) {
      const used = selectors(expr);
      expect({ expr, queriesAMetric: used.length > 0 }).toEqual({ expr, queriesAMetric: true });
      for (const { metric, matchers } of used) {
        expect({ expr, metric, known: KNOWN.has(metric) }).toEqual({ expr, metric, known: true });
        expect({ expr, metric, matchers }).toEqual({
          expr,
          metric,
          matchers: expect.stringContaining('job=~"$job", instance=~"$instance"'),
        });
      }
    }
  });

  it('every alert uses only contract metrics and carries for, severity, summary, description and a runbook link', () => {
    expect(rules.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'AgentEventQueueBacklog',
        'AgentEventsStalled',
        'AgentEventsFailing',
        'AgentHttp5xxRatio',
        'AgentTurnErrorRatio',
        'AgentProviderFailureRatio',
        'AgentEventLoopLag',
        'AgentDbPoolWaiting',
        'AgentRateLimiterFailingOpen',
        'AgentMetricsTargetDown',
      ]),
    );
    const headings = new Set([...read('docs/operations.md').matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)));
    for (const rule of rules) {
      for (const { metric } of selectors(rule.expr)) {
        expect({ rule: rule.name, metric, known: KNOWN.has(metric) }).toEqual({ rule: rule.name, metric, known: true });
      }
      expect(rule.block).toMatch(/^\s+for: \d+[smh]$/m);
      expect(rule.block).toMatch(/^\s+severity: (critical|warning)$/m);
      expect(rule.block).toMatch(/^\s+summary: \S/m);
      expect(rule.block).toMatch(/^\s+description: \S/m);
      const runbook = /^\s+runbook_url: "docs\/operations\.md#([\w-]+)"$/m.exec(rule.block)?.[1];
      expect({ rule: rule.name, runbook, documented: headings.has(runbook ?? '') }).toEqual({ rule: rule.name, runbook, documented: true });
    }
  });

  it('a selector on a metric only matches labels that metric has; groupings only use known labels', () => {
    for (const expr of [...dashboardExprs, ...rules.map((r) => r.expr)]) {
      for (const { metric, matchers } of selectors(expr)) {
        const allowed = [...(KNOWN.get(metric) ?? []), ...TARGET_LABELS];
        for (const label of labelNames(`{${matchers}}`)) {
          expect({ expr, metric, label, ok: allowed.includes(label) }).toEqual({ expr, metric, label, ok: true });
        }
      }
      for (const label of labelNames(expr)) expect({ expr, label, ok: ALL_LABELS.has(label) }).toEqual({ expr, label, ok: true });
    }
  });

  it('promtool parses every dashboard query and alert (the parser cross-check finds every rule)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dashboards-'));
    try {
      // Grafana's variables, as Grafana would substitute them, make each query plain PromQL for promtool.
      const plain = (expr: string) => expr.replace(/\$__rate_interval/g, '5m').replace(/\$(job|instance)\b/g, '.+');
      const recording = dashboardExprs.map(
        (expr, i) => `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(plain(expr))}`,
      );
      writeFileSync(join(dir, 'dashboard.rules.yml'), `groups:\n  - name: dashboard\n    rules:\n${recording.join('\n')}\n`);
      const dashboardCheck = await run('promtool', ['check', 'rules', join(dir, 'dashboard.rules.yml')]);
      expect(dashboardCheck.stdout).toContain(`SUCCESS: ${dashboardExprs.length} rules found`);
      const alertsCheck = await run('promtool', ['check', 'rules', join(ROOT, 'deploy/prometheus/alerts.yml')]);
      expect(alertsCheck.stdout).toContain(`SUCCESS: ${rules.length} rules found`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
