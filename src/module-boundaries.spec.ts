// The module boundaries of docs/architecture.md ("Module boundaries"), checked over the source tree on every test run:
// infrastructure never imports features; no import cycle; a module reaches another only through what that module
// publishes; SQL writes a table only in the module that owns it, and reads another module's table only where listed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
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
  agents: 'modules/agents',
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
  passage_embeddings: 'modules/knowledge',
  idempotency_keys: 'modules/idempotency',
  audit_events: 'modules/audit',
  webhook_endpoints: 'modules/webhooks',
  webhook_deliveries: 'modules/webhooks',
  webhook_thread_sequences: 'modules/webhooks',
  webhook_subscription_versions: 'modules/webhooks',
  usage_erased: 'modules/conversations',
  thread_items: 'modules/conversations',
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
  'modules/agents': ['projects', 'agent_revisions'],
  // Version lists and locks check the agent's organization in the same statement.
  'modules/versions': ['agents'],
  // Channel conversations list their sender, agent and project beside the thread.
  'modules/conversations': ['senders', 'agents', 'projects'],
  // A message about an agent goes to its project's endpoints: the project is looked up in the outbox's one statement.
  'modules/webhooks': ['agents'],
};

/** Folders below the feature modules: they never import from `modules/` (the entity registry is the one exception). */
const INFRASTRUCTURE = new Set(['common', 'config', 'database', 'queue', 'telemetry']);
const ENTITY_REGISTRY = join('database', 'entities.ts');

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

/** `modules/<name>` for feature modules, else the top-level folder (`common`, `database`, …) or the file itself. */
function unitOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  const [top = '', feature = ''] = parts;
  if (top === 'modules') return `modules/${feature}`;
  return parts.length > 1 ? top : top.replace(/\.ts$/, '');
}

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
      .filter((file) => INFRASTRUCTURE.has(file.unit) && relative(SRC, file.path) !== ENTITY_REGISTRY)
      .flatMap((file) =>
        file.imports.filter((i) => unitOf(i.target).startsWith('modules/')).map((i) => `${at(file)} → ${relative(SRC, i.target)}`),
      );
    expect(violations).toEqual([]);
  });

  it('a module reaches into another only through what it publishes (services, exported classes, entity types)', () => {
    const features = files.filter((file) => relative(SRC, file.path) !== ENTITY_REGISTRY);
    const violations = features.flatMap((file) =>
      file.imports
        .filter((i) => unitOf(i.target) !== file.unit && unitOf(i.target).startsWith('modules/') && PRIVATE_FILE.test(i.target))
        .filter((i) => !(i.typeOnly && ENTITY_FILE.test(i.target)))
        .filter((i) => i.names.length === 0 || i.names.some((name) => !published.get(unitOf(i.target))?.has(name)))
        .map((i) => `${at(file)} → ${relative(SRC, i.target)} (${i.names.join(', ')})`),
    );
    expect(violations).toEqual([]);
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

/** Strongly connected components of more than one node (Tarjan): each is a set of files that import each other. */
function stronglyConnected(edges: Map<string, string[]>): string[][] {
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
