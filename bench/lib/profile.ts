/**
 * Summarises V8 CPU profiles (`node --cpu-prof`) of the service: where the non-idle CPU time went, by function
 * (self time) and by area (a package under node_modules, a folder of src/, Node internals, GC).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  total_ms: number;
  by_area: Array<{ area: string; ms: number; share: number }>;
  by_function: Array<{ fn: string; where: string; ms: number; share: number }>;
}

const IGNORED = new Set(['(idle)', '(root)', '(program)']);

function areaOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : 'native / V8 builtins';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules?.[1]) return modules[1];
  const src = /\/dist\/src\/(modules\/[^/]+|[^/]+)/.exec(url);
  if (src?.[1]) return `src/${src[1].replace(/\.js$/, '')}`;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0] ?? ''}`;
  return url;
}

function whereOf(frame: ProfileNode['callFrame']): string {
  const url = frame.url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/dist\//, '');
  return url ? `${url}:${frame.lineNumber + 1}` : '';
}

export function summarizeProfiles(dir: string, top = 25): ProfileSummary | undefined {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  } catch {
    return undefined;
  }
  if (files.length === 0) return undefined;
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, { fn: string; where: string; us: number }>();
  let total = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const node = nodes.get(id);
      const us = profile.timeDeltas[i] ?? 0;
      if (!node || IGNORED.has(node.callFrame.functionName)) return;
      total += us;
      const area = areaOf(node.callFrame);
      byArea.set(area, (byArea.get(area) ?? 0) + us);
      const fn = node.callFrame.functionName || '(anonymous)';
      const where = whereOf(node.callFrame);
      const key = `${fn} ${where}`;
      const entry = byFunction.get(key) ?? { fn, where, us: 0 };
      entry.us += us;
      byFunction.set(key, entry);
    });
  }
  const share = (us: number) => (total > 0 ? us / total : 0);
  return {
    total_ms: total / 1000,
    by_area: [...byArea]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([area, us]) => ({ area, ms: us / 1000, share: share(us) })),
    by_function: [...byFunction.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((e) => ({ fn: e.fn, where: e.where, ms: e.us / 1000, share: share(e.us) })),
  };
}

export function profileMarkdown(summary: ProfileSummary, command: string): string {
  const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
  return [
    '# Service CPU profile',
    '',
    `- Command: \`${command}\``,
    `- Non-idle CPU sampled in the service process: ${summary.total_ms.toFixed(0)} ms (seeding and warm-up included; idle excluded)`,
    '',
    '## By area (self time)',
    '',
    '| Area | ms | share |',
    '|---|---:|---:|',
    ...summary.by_area.map((a) => `| ${a.area} | ${a.ms.toFixed(0)} | ${pct(a.share)} |`),
    '',
    '## Top functions (self time)',
    '',
    '| Function | Where | ms | share |',
    '|---|---|---:|---:|',
    ...summary.by_function.map((f) => `| \`${f.fn}\` | ${f.where} | ${f.ms.toFixed(0)} | ${pct(f.share)} |`),
    '',
  ].join('\n');
}
