/**
 * Line diff of two bundles for the Versions page: each bundle as canonical JSON (keys sorted, two-space indent, as
 * the service's digest reads it), compared with Myers' O(ND) algorithm, shown with a few lines of context.
 */
export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
}

/** A bundle as JSON text with every object's keys sorted, so key order never shows as a change. */
export function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sort(value), null, 2);
}

/** The shortest edit script from `a` to `b` (Myers 1986), as kept, removed and added lines in order. */
export function lineDiff(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // Before round d only diagonals -d-1..d+1 matter: keeping just those makes the trace O(D²), not O(D·(N+M)).
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  const out: DiffLine[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const saved = trace[d]!;
    const at = (diagonal: number) => saved[diagonal + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ op: ' ', text: a[x - 1]! });
      x--;
      y--;
    }
    if (d > 0) out.push(x === prevX ? { op: '+', text: b[y - 1]! } : { op: '-', text: a[x - 1]! });
    x = prevX;
    y = prevY;
  }
  return out.reverse();
}

export type DiffBlock = { kind: 'lines'; lines: DiffLine[] } | { kind: 'skipped'; count: number };

/** Changed lines with `context` unchanged lines around each change; longer unchanged runs become one "skipped" block. */
export function withContext(lines: DiffLine[], context = 3): DiffBlock[] {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, i) => {
    if (line.op === ' ') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = true;
  });
  const blocks: DiffBlock[] = [];
  lines.forEach((line, i) => {
    const last = blocks.at(-1);
    if (keep[i]) {
      if (last?.kind === 'lines') last.lines.push(line);
      else blocks.push({ kind: 'lines', lines: [line] });
    } else if (last?.kind === 'skipped') last.count += 1;
    else blocks.push({ kind: 'skipped', count: 1 });
  });
  return blocks;
}
