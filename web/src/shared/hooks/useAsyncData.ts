import { useCallback, useEffect, useMemo, useRef, useState } from 'react';

export type AsyncData<T> =
  | { status: 'loading' }
  | { status: 'success'; data: T }
  | { status: 'error'; error: unknown };

/**
 * Loads data when `key` changes (and on reload()). A superseded load is aborted and its
 * result ignored, so a slow old reply never overwrites a newer one.
 */
export function useAsyncData<T>(key: string, load: (signal: AbortSignal) => Promise<T>) {
  const latestLoad = useRef(load);
  latestLoad.current = load;
  const [state, setState] = useState<AsyncData<T>>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    latestLoad.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'success', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', error });
      },
    );
    return () => controller.abort();
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return useMemo(() => ({ ...state, reload }) as AsyncData<T> & { reload: () => void }, [state, reload]);
}
