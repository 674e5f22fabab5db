// The module boundaries of docs/architecture.md ("Module boundaries"), checked over the source tree on every test run:
// infrastructure never imports features; the modules and the infrastructure folders form a DAG (no import cycle
// between them, type-only imports included, nor between files); a module reaches another only through what that
// module publishes; only infrastructure is @Global; runtime has no routes; SQL writes a table only in the module that
// owns it, and reads another module's table only where listed.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = dirname(fileURLToPath(import.meta.url));

/** Table → the one module whose code may write it in SQL (migrations excepted: they are the schema's history). */
const TABLE_OWNERS: Record<string, string> = {
  organizations: 'modules/organizations',
  users: 'modules/organizations',
  organization_api_keys: 'modules/organizations',
  agent_api_keys: 'modules/auth',
  publishable_keys: 'modules/auth',
  projects: 'modules/projects',
  agents: 'modules/agent-records',
  agent_versions: 'modules/versions',
  agent_revisions: 'modules/versions',
  agent_traffic_splits: 'modules/versions',
  threads: 'modules/conversations',
  interactions: 'modules/conversations',
  usage_daily: 'modules/conversations',
  events: 'modules/events',
  senders: 'modules/channels',
  channel_messages: 'modules/channels',
  channel_unrouted_messages: 'modules/channels',
  passage_embeddings: 'modules/runtime',
  idempotency_keys: 'modules/idempotency',
  audit_events: 'modules/audit',
  webhook_endpoints: 'modules/webhooks',
  webhook_deliveries: 'modules/webhooks',
  webhook_thread_sequences: 'modules/webhooks',
  webhook_subscription_versions: 'modules/webhooks',
  usage_erased: 'modules/conversations',
  thread_items: 'modules/conversations',
  agent_secrets: 'modules/agent-secrets',
  mcp_tool_pins: 'modules/runtime',
};

/**
 * Reads of another module's table, each one statement on a hot path where a call through the owner's service would
 * cost a round trip: module → tables it may read (never write).
 */
const CROSS_MODULE_READS: Record<string, string[]> = {
  // The credential lookup resolves a key or token to its organization, agent and project in one statement.
  'modules/auth': ['agents', 'projects', 'organization_api_keys', 'users'],
  // The events webhook's target: the agent, its project and its live revision in one statement, cached.
  'modules/events': ['agents', 'projects', 'agent_revisions'],
  // A live agent is read with its live revision; a project's agents are listed through its visibility.
  'modules/agent-records': ['projects', 'agent_revisions'],
  // Version lists and locks check the agent's organization in the same statement.
  'modules/versions': ['agents'],
  // Channel conversations list their sender, agent and project beside the thread.
  'modules/conversations': ['senders', 'agents', 'projects'],
  // A message about an agent goes to its project's endpoints: the project is looked up in the outbox's one statement.
  'modules/webhooks': ['agents'],
};

/** Folders below the feature modules: they never import from `modules/`. */
const INFRASTRUCTURE = new Set(['common', 'config', 'database', 'queue', 'telemetry']);

/** Files that are a module's inside unless its Nest module publishes the class (`exports`). */
const PRIVATE_FILE = /(\.repository|\.entity|\.query|-queries)\.ts$|[\\/]entities[\\/]/;
const ENTITY_FILE = /\.entity\.ts$/;

interface Import {
  target: string;
  names: string[];
  typeOnly: boolean;
}

interface SourceFile {
  path: string;
  unit: string;
  text: string;
  imports: Import[];
}

/**
 * The unit a file belongs to in the module graph: `modules/<name>` for feature modules, `common/<folder>` for the
 * cross-cutting folders, else the top-level folder (`config`, `database`, …) or, for the entry points and the
 * composition root (`app.module`, `main`, …), the file itself.
 */
export function unitOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  const [top = '', folder = ''] = parts;
  if (top === 'modules' || (top === 'common' && parts.length > 2)) return `${top}/${folder}`;
  return parts.length > 1 ? top : top.replace(/\.ts$/, '');
}

/** The top-level folder of a unit (`common/bus` → `common`). */
const layerOf = (unit: string) => unit.split('/')[0] ?? unit;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

function importsOf(path: string, text: string): Import[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest);
  const imports: Import[] = [];
  for (const statement of source.statements) {
    const isImport = ts.isImportDeclaration(statement);
    if (!isImport && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
    const target = resolve(dirname(path), specifier.text.replace(/\.js$/, '.ts'));
    if (!isImport) {
      imports.push({ target, names: [], typeOnly: statement.isTypeOnly });
      continue;
    }
    const clause = statement.importClause;
    const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
    const names = [...(clause?.name ? [clause.name.text] : []), ...named.map((element) => (element.propertyName ?? element.name).text)];
    const typeOnly = Boolean(clause?.isTypeOnly) || (!clause?.name && named.length > 0 && named.every((element) => element.isTypeOnly));
    imports.push({ target, names, typeOnly });
  }
  return imports;
}

const files: SourceFile[] = sourceFiles(SRC).map((path) => {
  const text = readFileSync(path, 'utf8');
  return { path, unit: unitOf(path), text, imports: importsOf(path, text) };
});

/** What each feature module publishes: the classes its Nest modules list in `exports`. */
const published = new Map<string, Set<string>>();
for (const file of files.filter((f) => f.path.endsWith('.module.ts'))) {
  const names = [...file.text.matchAll(/exports:\s*\[([^\]]*)\]/g)].flatMap((m) => (m[1] ?? '').match(/[A-Za-z_]\w*/g) ?? []);
  published.set(file.unit, new Set([...(published.get(file.unit) ?? []), ...names]));
}

const at = (file: SourceFile) => relative(SRC, file.path);

describe('module boundaries', () => {
  it('infrastructure (common, config, database, queue, telemetry) imports no feature module', () => {
    const violations = files
      .filter((file) => INFRASTRUCTURE.has(layerOf(file.unit)))
      .flatMap((file) =>
        file.imports.filter((i) => unitOf(i.target).startsWith('modules/')).map((i) => `${at(file)} → ${relative(SRC, i.target)}`),
      );
    expect(violations).toEqual([]);
  });

  it('a module reaches into another only through what it publishes (services, exported classes, entity types)', () => {
    // The composition root (src/*.ts: app.module, entities, the entry points) assembles the modules: it is exempt.
    const violations = files
      .filter((file) => relative(SRC, file.path).includes(sep))
      .flatMap((file) =>
        file.imports
          .filter((i) => unitOf(i.target) !== file.unit && unitOf(i.target).startsWith('modules/') && PRIVATE_FILE.test(i.target))
          .filter((i) => !(i.typeOnly && ENTITY_FILE.test(i.target)))
          .filter((i) => i.names.length === 0 || i.names.some((name) => !published.get(unitOf(i.target))?.has(name)))
          .map((i) => `${at(file)} → ${relative(SRC, i.target)} (${i.names.join(', ')})`),
      );
    expect(violations).toEqual([]);
  });

  it('no cycle between modules, nor between infrastructure folders (any import counts, type-only included)', () => {
    expect(stronglyConnected(moduleGraph(files)).map((cycle) => cycle.join(' ↔ '))).toEqual([]);
  });

  it('docs/architecture.md shows the module graph as the code has it (WRITE_MODULE_GRAPH=1 rewrites it)', () => {
    const doc = join(SRC, '..', 'docs', 'architecture.md');
    const text = readFileSync(doc, 'utf8');
    const [before, rest] = text.split(GRAPH_BEGIN);
    const after = rest?.split(GRAPH_END)[1];
    expect(after).toBeDefined();
    const current = `${before}${GRAPH_BEGIN}\n${renderModuleGraph(moduleGraph(files))}${GRAPH_END}${after}`;
    // eslint-disable-next-line no-restricted-syntax -- a switch of this test, not configuration of the service
    if (process.env.WRITE_MODULE_GRAPH === '1') writeFileSync(doc, current);
    expect(text).toBe(current);
  });

  it('only infrastructure is @Global', () => {
    expect(files.filter((file) => !INFRASTRUCTURE.has(layerOf(file.unit)) && /@Global\(\)/.test(file.text)).map(at)).toEqual([]);
  });

  it('runtime (the engines) has no routes', () => {
    const routes = /@\w*Controller\(|@WebSocketGateway\(|controllers:\s*\[\s*\w/;
    expect(files.filter((file) => file.unit === 'modules/runtime' && routes.test(file.text)).map(at)).toEqual([]);
  });

  it('no import cycle between source files, and no forwardRef between Nest modules', () => {
    const edges = new Map(files.map((file) => [file.path, file.imports.map((i) => i.target)]));
    expect(stronglyConnected(edges).map((cycle) => cycle.map((path) => relative(SRC, path)).join(' → '))).toEqual([]);
    expect(files.filter((file) => /\bforwardRef\(/.test(file.text)).map(at)).toEqual([]);
  });

  it('SQL writes a table only in its owner, and reads another module’s table only where listed', () => {
    const violations: string[] = [];
    for (const file of files) {
      for (const match of file.text.matchAll(/\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE|FROM|JOIN)\s+"?([a-z_]+)"?/g)) {
        const [, verb = '', table = ''] = match;
        const owner = TABLE_OWNERS[table];
        if (!owner || owner === file.unit) continue;
        const read = /^(FROM|JOIN)$/.test(verb) && !/^DELETE/.test(verb);
        if (read && CROSS_MODULE_READS[file.unit]?.includes(table)) continue;
        violations.push(`${at(file)}: ${match[0]} (owner: ${owner})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('every table of the schema has an owner', () => {
    const migrations = join(SRC, 'database', 'migrations');
    const created = readdirSync(migrations).flatMap((name) =>
      [...readFileSync(join(migrations, name), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?([a-z_]+)/g)].map((m) => m[1] ?? ''),
    );
    expect([...new Set(created)].filter((table) => !(table in TABLE_OWNERS))).toEqual([]);
  });
});

/** Unit → the units its files import (every kind of import: values, types, re-exports). */
export function moduleGraph(sources: Array<Pick<SourceFile, 'unit' | 'imports'>>): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources) {
    const targets = graph.get(file.unit) ?? new Set<string>();
    for (const i of file.imports) if (unitOf(i.target) !== file.unit) targets.add(unitOf(i.target));
    graph.set(file.unit, targets);
  }
  for (const targets of [...graph.values()]) for (const target of targets) if (!graph.has(target)) graph.set(target, new Set());
  return new Map([...graph].map(([unit, targets]) => [unit, [...targets].sort()]));
}

const GRAPH_BEGIN = '<!-- module graph: generated by src/module-boundaries.spec.ts -->';
const GRAPH_END = '<!-- end of module graph -->';

/**
 * The module graph as text, one unit per line with what it imports, lowest layer first: a unit's layer is one more
 * than the highest layer among its imports (0: imports nothing of ours). Entry points and the composition root
 * (top-level files) are left out: they import everything.
 */
export function renderModuleGraph(graph: Map<string, string[]>): string {
  const layer = new Map<string, number>();
  const layerOf = (unit: string): number => {
    if (!layer.has(unit)) layer.set(unit, Math.max(-1, ...(graph.get(unit) ?? []).map(layerOf)) + 1);
    return layer.get(unit)!;
  };
  const units = [...graph.keys()].filter((unit) => unit.includes('/') || INFRASTRUCTURE.has(unit));
  const lines = units
    .sort((a, b) => layerOf(a) - layerOf(b) || a.localeCompare(b))
    .map((unit) => {
      const targets = (graph.get(unit) ?? []).filter((target) => units.includes(target));
      return `${String(layerOf(unit)).padStart(2)}  ${unit.padEnd(26)} ${targets.length > 0 ? `→ ${targets.join(', ')}` : ''}`.trimEnd();
    });
  return ['```', ...lines, '```', ''].join('\n');
}

/**
 * Strongly connected components of more than one node (Tarjan): each is a set of nodes (files, modules) that import
 * each other, directly or around a loop.
 */
export function stronglyConnected(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  return components;
}

describe('the cycle finder', () => {
  const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

  it('finds nothing in a DAG, diamonds included', () => {
    expect(stronglyConnected(graph({ a: ['b', 'c'], b: ['d'], c: ['d'], d: [] }))).toEqual([]);
  });

  it('finds a two-node cycle, a longer loop and two separate knots', () => {
    expect(stronglyConnected(graph({ a: ['b'], b: ['a'] }))).toEqual([['a', 'b']]);
    expect(stronglyConnected(graph({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }))).toEqual([['a', 'b', 'c']]);
    const knots = stronglyConnected(graph({ a: ['b'], b: ['a', 'c'], c: ['d'], d: ['c'], e: [] }));
    expect(knots.sort()).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('builds the module graph from imports of every kind and sees a type-only cycle', () => {
    const file = (unit: string, ...targets: string[]) => ({
      unit,
      imports: targets.map((target) => ({ target: join(SRC, target), names: [], typeOnly: true })),
    });
    const modules = moduleGraph([
      file('modules/a', 'modules/b/b.service.ts'),
      file('modules/b', 'modules/a/a.types.ts', 'common/bus/event-map.ts'),
      file('common/bus', 'database/unit-of-work.ts'),
    ]);
    expect(modules.get('modules/b')).toEqual(['common/bus', 'modules/a']);
    expect(stronglyConnected(modules)).toEqual([['modules/a', 'modules/b']]);
  });
});
