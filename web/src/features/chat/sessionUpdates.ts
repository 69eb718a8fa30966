import { useEffect, useRef, type Dispatch, type SetStateAction } from 'react';
import type { Socket } from 'socket.io-client';
import { getSocket } from '../../shared/socket';
import type { Session } from '../../shared/chat/types';

/** A session after a server update: what the update leaves out (the viewer's own fields, facts in `data`) stays. */
export function mergeSession<T extends Session>(session: T, update: Partial<Session>): T {
  return { ...session, ...update, data: { ...session.data, ...update.data } };
}

/**
 * Keeps shown sessions as the server last described them: a `session` event (an edit, an
 * offer, or the viewer's own moderation, such as being blocked) updates the entry it names on
 * every screen at once.
 */
export function useSessionUpdates<T extends Session>(setSessions: Dispatch<SetStateAction<T[]>>) {
  const latest = useRef(setSessions);
  latest.current = setSessions;
  useEffect(() => {
    let cancelled = false;
    let open: Socket | null = null;
    const onSession = (update: Partial<Session> & { _id: string }) =>
      latest.current((current) =>
        current.some((entry) => entry._id === update._id) ? current.map((entry) => (entry._id === update._id ? mergeSession(entry, update) : entry)) : current,
      );
    void getSocket().then((socket) => {
      if (cancelled) return;
      open = socket;
      socket.on('session', onSession);
    });
    return () => {
      cancelled = true;
      open?.off('session', onSession);
    };
  }, []);
}
