import { useEffect } from 'react';
import { getSocket } from '../socket';
import { useLatest } from './useLatest';

/**
 * Calls `handler` for every `event` the app's socket receives while `enabled`. The
 * latest handler is used, so callers need not memoise it.
 */
export function useSocketEvent<Payload>(event: string, handler: (payload: Payload) => void, enabled = true) {
  const latest = useLatest(handler);
  useEffect(() => {
    if (!enabled) return undefined;
    let cancelled = false;
    const listener = (payload: Payload) => latest.current(payload);
    const ready = getSocket();
    void ready.then((socket) => {
      if (!cancelled) socket.on(event, listener);
    });
    return () => {
      cancelled = true;
      void ready.then((socket) => socket.off(event, listener));
    };
  }, [event, enabled, latest]);
}
