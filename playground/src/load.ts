import { useEffect, useState } from 'preact/hooks';

export interface Loaded<T> {
  value?: T;
  error?: unknown;
  loading: boolean;
}

/**
 * Loads `fetch()` when the page shows and whenever `deps` change (an answer for earlier deps is dropped); the
 * returned `reload` fetches again, e.g. after a change.
 */
export function useLoad<T>(fetch: () => Promise<T>, deps: unknown[]): [Loaded<T>, () => void] {
  const [state, setState] = useState<Loaded<T>>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    fetch().then(
      (value) => current && setState({ value, loading: false }),
      (error: unknown) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  return [state, () => setRound((n) => n + 1)];
}
