import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLatest } from './useLatest';

export type AsyncData<T> =
  | { status: 'loading' }
  | { status: 'success'; data: T }
  | { status: 'error'; error: unknown };

const LOADING = { status: 'loading' } as const;

/**
 * Loads data when `key` changes (and on reload()). A superseded load is aborted and its
 * result ignored, so a slow old reply never overwrites a newer one. Until the load of the
 * current key answers, the state is loading: each result is kept with the load it answers.
 */
export function useAsyncData<T>(key: string, load: (signal: AbortSignal) => Promise<T>) {
  const latestLoad = useLatest(load);
  const [generation, setGeneration] = useState(0);
  const request = `${generation}:${key}`;
  const [result, setResult] = useState<{ request: string; state: AsyncData<T> } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    latestLoad.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setResult({ request, state: { status: 'success', data } });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setResult({ request, state: { status: 'error', error } });
      },
    );
    return () => controller.abort();
  }, [request, latestLoad]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  const state: AsyncData<T> = result?.request === request ? result.state : LOADING;
  return useMemo(() => ({ ...state, reload }) as AsyncData<T> & { reload: () => void }, [state, reload]);
}
