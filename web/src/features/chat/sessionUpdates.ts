import { useEffect, type Dispatch, type SetStateAction } from 'react';
import type { Socket } from 'socket.io-client';
import { getSocket } from '../../shared/socket';
import type { Session } from '../../shared/chat/types';
import { useLatest } from '../../shared/hooks/useLatest';

/** What the server (or this screen) says changed in a session: its id and the fields that moved. */
export type SessionUpdate = Partial<Session> & { _id: string };

/** A session after a server update: what the update leaves out (the viewer's own fields, facts in `data`) stays. */
export function mergeSession<T extends Session>(session: T, update: Partial<Session>): T {
  return { ...session, ...update, data: { ...session.data, ...update.data } };
}

/** Shown lists of sessions after an update: the entry it names follows it, others stay. */
export function applySessionUpdate<T extends Session>(sessions: T[], update: SessionUpdate): T[] {
  if (!sessions.some((entry) => entry._id === update._id)) return sessions;
  return sessions.map((entry) => (entry._id === update._id ? mergeSession(entry, update) : entry));
}

const local = new Set<(update: SessionUpdate) => void>();

/**
 * A change this screen made itself (the viewer's own mute): every shown copy of the session
 * follows at once, as it does for the server's `session` event, which tells the viewer's
 * other tabs (and this one a moment later).
 */
export function announceSession(update: SessionUpdate): void {
  local.forEach((listener) => listener(update));
}

/**
 * Keeps shown sessions as the server last described them: a `session` event (an edit, an
 * offer, the viewer's own moderation such as being blocked, or their mute on another screen)
 * and this screen's own announcements update the entry they name on every screen at once.
 */
export function useSessionUpdates<T extends Session>(setSessions: Dispatch<SetStateAction<T[]>>) {
  const latest = useLatest(setSessions);
  useEffect(() => {
    let cancelled = false;
    let open: Socket | null = null;
    const onSession = (update: SessionUpdate) => latest.current((current) => applySessionUpdate(current, update));
    local.add(onSession);
    void getSocket().then((socket) => {
      if (cancelled) return;
      open = socket;
      socket.on('session', onSession);
    });
    return () => {
      cancelled = true;
      local.delete(onSession);
      open?.off('session', onSession);
    };
  }, [latest]);
}
