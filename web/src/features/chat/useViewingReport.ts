import { useEffect } from 'react';
import { getSocket } from '../../shared/socket';

/**
 * Tells the server which chat this tab shows while it is visible (null when none or
 * hidden), so that its user gets no push for that chat meanwhile. Sent again on every
 * (re)connect: the server forgets a socket's view when it disconnects.
 */
export function useViewingReport(sessionId: string | null): void {
  useEffect(() => {
    let cancelled = false;
    const socket = getSocket();
    const report = () => {
      const shown = document.visibilityState === 'visible' ? sessionId : null;
      void socket.then((open) => {
        if (!cancelled) open.emit('viewing', { session_id: shown });
      });
    };
    report();
    document.addEventListener('visibilitychange', report);
    void socket.then((open) => open.on('connect', report));
    return () => {
      cancelled = true;
      document.removeEventListener('visibilitychange', report);
      void socket.then((open) => {
        open.off('connect', report);
        open.emit('viewing', { session_id: null });
      });
    };
  }, [sessionId]);
}
