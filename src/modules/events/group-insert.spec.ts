import type { NewEvent } from './events.repository.js';
import { GroupInsert } from './group-insert.js';

function event(id: string, text = 'fine'): NewEvent {
  return { id, organizationId: 'org', agentId: 'agent', externalThreadId: null, text, agentVariablesJson: '{}', traceContextJson: null };
}

class Refused extends Error {}
class Unreachable extends Error {}

/**
 * A fake store: every statement waits until the test releases it; a statement with a row whose text is
 * 'refused' fails as a whole, as PostgreSQL does; `down` makes every statement fail.
 */
function fakeStore() {
  const statements: string[][] = [];
  const committed: string[] = [];
  const gates: Array<() => void> = [];
  let down = false;
  const write = async (rows: NewEvent[]): Promise<void> => {
    statements.push(rows.map((r) => r.id));
    await new Promise<void>((resolve) => gates.push(resolve));
    if (down) throw new Unreachable('connect ECONNREFUSED');
    if (rows.some((r) => r.text === 'refused')) throw new Refused('invalid byte sequence');
    committed.push(...rows.map((r) => r.id));
  };
  /** Lets every statement waiting now (and those its outcome starts) finish. */
  const drain = async (): Promise<void> => {
    for (let i = 0; i < 1000 && gates.length > 0; i += 1) {
      gates.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { write, statements, committed, drain, goDown: () => (down = true) };
}

/** Each insert's outcome, observed from the start (a rejection is never unhandled). */
function outcomes(promises: Array<Promise<void>>): Promise<string[]> {
  return Promise.allSettled(promises).then((all) =>
    all.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as Error).constructor.name)),
  );
}

describe('GroupInsert', () => {
  it('groups events that arrive while a statement is in flight into the next statement', async () => {
    const store = fakeStore();
    const inserts = new GroupInsert(store.write, { lanes: 1 });
    const all = outcomes(['a', 'b', 'c', 'd'].map((id) => inserts.insert(event(id))));
    await store.drain();
    expect(await all).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(store.statements).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('fails only the row the store refuses when it shared a statement with others, keeping arrival order', async () => {
    const store = fakeStore();
    const inserts = new GroupInsert(store.write, { lanes: 1, failsEveryRow: (error) => error instanceof Unreachable });
    const first = inserts.insert(event('a'));
    const all = outcomes([first, ...[event('b'), event('c', 'refused'), event('d'), event('e')].map((e) => inserts.insert(e))]);
    await store.drain();
    expect(await all).toEqual(['ok', 'ok', 'Refused', 'ok', 'ok']);
    expect(store.statements).toEqual([['a'], ['b', 'c', 'd', 'e'], ['b'], ['c'], ['d'], ['e']]);
    expect(store.committed).toEqual(['a', 'b', 'd', 'e']);
  });

  it('fails every row of the statement at once when the store is unreachable (no row-by-row retries)', async () => {
    const store = fakeStore();
    const inserts = new GroupInsert(store.write, { lanes: 1, failsEveryRow: (error) => error instanceof Unreachable });
    const first = inserts.insert(event('a'));
    const all = outcomes([first, ...['b', 'c', 'd'].map((id) => inserts.insert(event(id)))]);
    store.goDown();
    await store.drain();
    expect(await all).toEqual(['Unreachable', 'Unreachable', 'Unreachable', 'Unreachable']);
    expect(store.statements).toEqual([['a'], ['b', 'c', 'd']]);
  });
});
