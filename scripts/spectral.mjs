// Spectral with the OWASP API Security ruleset (.spectral.yaml) over openapi.json, run by CI (.ci/run).
// Fails on any error-severity finding in what a client sends: a parameter, a request body, or a schema reachable
// from one. Response-side and document-level findings are printed by rule; docs/api.md lists them with the reasons.
//   node scripts/spectral.mjs [openapi.json]
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const documentPath = process.argv[2] ?? join(root, 'openapi.json');
const document = JSON.parse(readFileSync(documentPath, 'utf8'));
const ERROR = 0;

/** Schema names a request can carry: from parameters and request bodies, following $refs transitively. */
function requestSchemas() {
  const names = new Set();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const ref = typeof node.$ref === 'string' && /^#\/components\/schemas\/(.+)$/.exec(node.$ref);
    if (ref && !names.has(ref[1])) {
      names.add(ref[1]);
      visit(document.components.schemas[ref[1]]);
    }
    Object.values(node).forEach(visit);
  };
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      if (!operation || typeof operation !== 'object') continue;
      visit(operation.parameters);
      visit(operation.requestBody);
    }
  }
  // WebSocket client frames are requests too (x-websocket).
  for (const route of Object.values(document['x-websocket'] ?? {})) visit(route.clientFrames);
  return names;
}

function sideOf(path, requestNames) {
  if (path[0] === 'paths')
    return path.includes('responses') ? 'response' : path.includes('parameters') || path.includes('requestBody') ? 'request' : 'operation';
  if (path[0] === 'components' && path[1] === 'schemas') return requestNames.has(path[2]) ? 'request' : 'response';
  if (path[0] === 'components' && path[1] === 'headers') return 'response';
  if (path[0] === 'webhooks') return 'webhook';
  return 'document';
}

const dir = mkdtempSync(join(tmpdir(), 'spectral-'));
const output = join(dir, 'findings.json');
const spectral = join(root, 'node_modules', '@stoplight', 'spectral-cli', 'dist', 'index.js');
try {
  await promisify(execFile)(
    process.execPath,
    [spectral, 'lint', documentPath, '--ruleset', join(root, '.spectral.yaml'), '--format', 'json', '--output', output, '--quiet'],
    {
      cwd: root,
      maxBuffer: 64 << 20,
    },
  ).catch((error) => {
    // Spectral exits 1 when it found errors; anything else (no output) is a failure of the run itself.
    if (error.code !== 1) throw error;
  });
  const findings = JSON.parse(readFileSync(output, 'utf8'));
  const requestNames = requestSchemas();
  const bySide = {};
  for (const finding of findings.filter((f) => f.severity === ERROR)) {
    const side = sideOf(finding.path, requestNames);
    ((bySide[side] ??= {})[finding.code] ??= []).push(finding.path.join('.'));
  }
  for (const [side, rules] of Object.entries(bySide)) {
    const total = Object.values(rules).reduce((n, paths) => n + paths.length, 0);
    console.log(`spectral (OWASP): ${total} error(s) on the ${side} side`);
    for (const [rule, paths] of Object.entries(rules))
      console.log(`  ${rule}: ${paths.length}${side === 'request' ? `\n    ${paths.join('\n    ')}` : ''}`);
  }
  const request = Object.values(bySide.request ?? {}).flat().length;
  if (request > 0) {
    console.error(`spectral: ${request} error(s) in what clients send; state the limit the service enforces (docs/api.md)`);
    process.exitCode = 1;
  } else console.log('spectral (OWASP): 0 errors on request schemas and parameters');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
